//! Typed values in claims — dates, quarters, versions, booleans, numbers with units — read
//! from tokens, and the rule for when two claims' values cannot both hold.
//!
//! What it is for: [`value_at`] (the value starting at a token) and [`values_incompatible`],
//! which `analysis` and `detection` build on.
//!
//! What it is not for: deciding which tokens are the predicate (`analysis` does, and skips
//! past values such as "was June 30") or calendars: dates are compared field by field, months
//! and years are not converted to seconds.

use super::tokens::{Tk, Toks, fold_hash, parse_num, scaled};
use super::words::{W_ARTICLE, W_HISTORY, W_MONTH, W_NEG, W_STOP};
use crate::hash::fnv64;

/// A typed value found in a claim.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Value {
    /// 0 = not given.
    Date {
        y: u16,
        m: u8,
        d: u8,
    },
    Quarter {
        q: u8,
        y: u16,
    },
    /// Up to 4 numeric components.
    Version {
        parts: [u32; 4],
        n: u8,
    },
    Bool(bool),
    /// A currency named without an amount ("settled in EUR", "currency: GBP"): its unit key.
    Currency(u64),
    /// A number in a unit ([`unit`] hashes: `%`, `x`, `usd`/`eur`/`gbp`, `s` — durations are
    /// converted to seconds —, `th`, another word following the number, folded; 0 for none).
    Num {
        unit: u64,
        v: f64,
    },
}

/// Unit keys.
pub(super) const fn unit(name: &str) -> u64 {
    fnv64(name.as_bytes()) | 1
}
pub(super) const U_PERCENT: u64 = unit("%");
const U_TIMES: u64 = unit("x");
pub(super) const U_SECONDS: u64 = unit("s");
const U_ORDINAL: u64 = unit("th");
pub(super) const U_USD: u64 = unit("usd");
pub(super) const U_BYTES: u64 = unit("bytes");
/// A number before *of*: a part of a whole ("31 of 40 sites").
const U_PART: u64 = unit("of");
const U_EUR: u64 = unit("eur");
/// Thirteenth round: temperatures in degrees Celsius (°F converted) — equal temperatures in
/// the other scale are equal.
pub(super) const U_CELSIUS: u64 = unit("°c");
/// Thirteenth round: lengths in metres and masses in kilograms, converted from other units.
pub(super) const U_METRES: u64 = unit("metres");
pub(super) const U_KILOGRAMS: u64 = unit("kg");
const U_GBP: u64 = unit("gbp");

fn version(s: &str) -> Option<Value> {
    let mut parts = [0u32; 4];
    let mut n = 0;
    for p in s.split('.') {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if n < 4 {
            parts[n] = p.parse::<u32>().unwrap_or(u32::MAX);
            n += 1;
        }
    }
    Some(Value::Version { parts, n: n as u8 })
}

/// The value starting at token `i` (a word or number), with the index after it.
pub(super) fn value_at(tk: &Toks, i: usize, end: usize, first: bool) -> Option<(Value, usize)> {
    let w = tk.w(i);
    let tight = |k: usize| k < end && !tk.toks[k].space;
    let num_at = |k: usize| (k < end && tk.toks[k].kind == Tk::Num).then(|| tk.w(k));
    let year_at = |k: usize| {
        num_at(k).filter(|y| y.len() == 4 && y.bytes().all(|b| b.is_ascii_digit())).and_then(|y| y.parse::<u16>().ok())
    };
    let day_at = |k: usize| {
        num_at(k).and_then(|d| {
            let digits = d.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 || digits > 2 || !matches!(&d[digits..], "" | "st" | "nd" | "rd" | "th") {
                return None;
            }
            d[..digits].parse::<u8>().ok().filter(|d| (1..=31).contains(d))
        })
    };
    match tk.toks[i].kind {
        Tk::Word => {
            if let Some(m) = tk.month(i) {
                let mut k = i + 1;
                if tk.punct(k) == Some('.') && tight(k) {
                    k += 1; // "Jul."
                }
                let d = day_at(k);
                if d.is_some() {
                    k += 1;
                }
                let comma = usize::from(tk.punct(k) == Some(','));
                let y = year_at(k + comma);
                if y.is_some() {
                    k += comma + 1;
                }
                let accept = d.is_some() || y.is_some() || (tk.toks[i].cap && w.len() > 3);
                return accept.then_some((Value::Date { y: y.unwrap_or(0), m, d: d.unwrap_or(0) }, k));
            }
            let b = w.as_bytes();
            if b.len() == 2 && b[0] == b'q' && matches!(b[1], b'1'..=b'4') {
                let y = year_at(i + 1);
                return Some((Value::Quarter { q: b[1] - b'0', y: y.unwrap_or(0) }, i + 1 + usize::from(y.is_some())));
            }
            if b.len() > 1 && b[0] == b'v' && b[1].is_ascii_digit() {
                return version(&w[1..]).map(|v| (v, i + 1));
            }
            if let Some((v, k)) = number_words(tk, i, end) {
                return Some(num_tail(tk, k, end, v, 0));
            }
            // A currency code without an amount: "settled in EUR" (an amount is read from
            // its number: "50 EUR").
            if matches!(w, "usd" | "eur" | "gbp") {
                if i + 1 < end && tk.toks[i + 1].kind == Tk::Num {
                    return value_at(tk, i + 1, end, false); // "USD 41k": the amount
                }
                return currency(w).map(|c| (Value::Currency(c), i + 1));
            }
            let alone = first && (i + 1 >= end || tk.punct(i + 1).is_some());
            let b = match w {
                "true" | "enabled" => Some(true),
                "false" | "disabled" => Some(false),
                "yes" if first => Some(true),
                "no" if alone => Some(false),
                "on" if alone && i + 1 >= end => Some(true),
                "off" if alone && i + 1 >= end => Some(false),
                _ => None,
            };
            b.map(|b| (Value::Bool(b), i + 1))
        }
        Tk::Num => {
            // ISO dates: 2026-06-30, 2026/06/30, 2026-06.
            if let Some(y) = year_at(i)
                && matches!(tk.punct(i + 1), Some('-' | '/'))
                && tight(i + 1)
                && tight(i + 2)
                && let Some(m) = num_at(i + 2).and_then(|m| m.parse::<u8>().ok()).filter(|m| (1..=12).contains(m))
            {
                if matches!(tk.punct(i + 3), Some('-' | '/'))
                    && tight(i + 3)
                    && tight(i + 4)
                    && let Some(d) = day_at(i + 4)
                {
                    return Some((Value::Date { y, m, d }, i + 5));
                }
                return Some((Value::Date { y, m, d: 0 }, i + 3));
            }
            if w.bytes().filter(|&b| b == b'.').count() >= 2 {
                return version(w).map(|v| (v, i + 1));
            }
            // 14 July (2026).
            if let Some(d) = day_at(i)
                && let Some(m) = tk.month(i + 1).filter(|_| i + 1 < end)
            {
                let y = year_at(i + 2);
                return Some((Value::Date { y: y.unwrap_or(0), m, d }, i + 2 + usize::from(y.is_some())));
            }
            let (v, suffix) = parse_num(w)?;
            let (mut v, suffix) = scaled(v, suffix);
            let mut unit_key = 0;
            match suffix {
                "" => {}
                "x" => unit_key = U_TIMES,
                "st" | "nd" | "rd" | "th" => unit_key = U_ORDINAL,
                s => match (duration(s), size(s)) {
                    (Some(f), _) => {
                        v *= f;
                        unit_key = U_SECONDS;
                    }
                    (None, Some(f)) => {
                        v *= f;
                        unit_key = U_BYTES;
                    }
                    (None, None) => unit_key = fold_hash(s),
                },
            }
            if tight(i) {
                match tk.punct(i - 1) {
                    Some('$') => unit_key = U_USD,
                    Some('€') => unit_key = U_EUR,
                    Some('£') => unit_key = U_GBP,
                    _ => {}
                }
            } else if i > 0
                && unit_key == 0
                && tk.toks[i - 1].kind == Tk::Word
                && let Some(c) = currency(tk.w(i - 1)).filter(|_| matches!(tk.w(i - 1), "usd" | "eur" | "gbp"))
            {
                unit_key = c; // "USD 41k"
            }
            Some(num_tail(tk, i + 1, end, v, unit_key))
        }
        Tk::Punct(_) => None,
    }
}

/// A number word *one* … *twenty*, *thirty* … *ninety*.
fn small(w: &str) -> Option<f64> {
    const UNITS: [&str; 20] = [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    const TENS: [&str; 7] = ["thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
    if let Some(p) = UNITS.iter().position(|u| *u == w) {
        return Some(p as f64 + 1.0);
    }
    TENS.iter().position(|u| *u == w).map(|p| 30.0 + 10.0 * p as f64)
}

/// Ordinals *second* … *twentieth* (not *first*, which also says an order of steps).
const ORDINALS: [&str; 19] = [
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
];

/// Ninth round: the count one lower-cased word names, written in digits (with a suffix:
/// "18pt", "4th"), in words ("four") or as an ordinal ("fourth"), for comparing what two next
/// actions name ("show four" / "the fourth show").
pub(super) fn count_of(w: &str) -> Option<u64> {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        return w[..digits].parse().ok();
    }
    if let Some(p) = ORDINALS.iter().position(|o| *o == w) {
        return Some(p as u64 + 2);
    }
    small(w).filter(|v| v.fract() == 0.0).map(|v| v as u64)
}

/// A number written in words at token `i`: *one* … *twenty*, the tens (*thirty* … *ninety*,
/// with a unit word after them: "twenty-five"), *dozen*, *hundred*, *thousand*, *half* ("half a
/// second"), "and a half" after a number ("one and a half"), then *hundred*/*thousand*/
/// *million*/*dozen* as multipliers ("two hundred").
/// *one* before *of* is not a number ("one of the reasons"). Returns the value and the index
/// after it.
pub(super) fn number_words(tk: &Toks, i: usize, end: usize) -> Option<(f64, usize)> {
    let word = |k: usize| (k < end && tk.toks[k].kind == Tk::Word).then(|| tk.w(k));
    let w = word(i)?;
    let (mut v, mut k) = match w {
        "dozen" => (12.0, i + 1),
        "hundred" => (100.0, i + 1),
        "thousand" => (1000.0, i + 1),
        "half" => (0.5, i + 1 + usize::from(tk.has(i + 1, W_ARTICLE))),
        "one" if tk.is(i + 1, "of") => return None,
        _ => (small(w)?, i + 1),
    };
    if (20.0..100.0).contains(&v) && v % 10.0 == 0.0 {
        let dash = usize::from(tk.punct(k) == Some('-'));
        if let Some(u) = word(k + dash).and_then(small).filter(|u| *u < 10.0) {
            v += u;
            k += dash + 1;
        }
    }
    // "one and a half hours", "two and a half days" (eighth round: read as 1.5 and 2.5, not
    // as a number and another half).
    if w != "half" && word(k) == Some("and") && tk.is(k + 1, "a") && word(k + 2) == Some("half") {
        v += 0.5;
        k += 3;
    }
    while let Some(m) = word(k).and_then(|w| match w {
        "hundred" => Some(100.0),
        "thousand" => Some(1e3),
        "million" => Some(1e6),
        "dozen" => Some(12.0),
        _ => None,
    }) {
        v *= m;
        k += 1;
    }
    Some((v, k))
}

/// What follows a number (from token `k`): `%`, `×`, a scale word, then a unit word.
fn num_tail(tk: &Toks, mut k: usize, end: usize, mut v: f64, mut unit_key: u64) -> (Value, usize) {
    if tk.punct(k) == Some('%') {
        // "99.7%" and "99.7 %"
        unit_key = U_PERCENT;
        k += 1;
    } else if tk.punct(k) == Some('×') {
        unit_key = U_TIMES;
        k += 1;
    } else if let Some((c, next)) = temperature(tk, k, end) {
        // "82 °F", "28°C", "28 degrees Celsius" (thirteenth round).
        v = if c { v } else { (v - 32.0) * 5.0 / 9.0 };
        unit_key = U_CELSIUS;
        k = next;
    } else if unit_key == 0
        && tk.punct(k) == Some('(')
        && k + 2 < end
        && tk.punct(k + 2) == Some(')')
        && tk.toks[k + 1].kind == Tk::Word
        && let Some(f) = duration(tk.w(k + 1))
    {
        // "1800 (seconds)": the unit in brackets after a bare number, as a configuration value
        // is written (thirteenth round).
        v *= f;
        unit_key = U_SECONDS;
        k += 3;
    }
    // A scale word, then a unit word, after the number.
    let is_currency = matches!(unit_key, U_USD | U_EUR | U_GBP);
    if k < end && (unit_key == 0 || is_currency) && tk.toks[k].kind == Tk::Word {
        let scale = match tk.w(k) {
            "k" | "thousand" => 1e3,
            "million" | "mn" => 1e6,
            "bn" | "billion" => 1e9,
            _ => 0.0,
        };
        if scale > 0.0 {
            v *= scale;
            k += 1;
        }
    }
    // "40-minute", "sixty-month": a unit joined by a hyphen (fourth round).
    if unit_key == 0
        && tk.punct(k) == Some('-')
        && k + 1 < end
        && !tk.toks[k].space
        && !tk.toks[k + 1].space
        && tk.toks[k + 1].kind == Tk::Word
        && (duration(tk.w(k + 1)).is_some() || size(tk.w(k + 1)).is_some() || physical(tk.w(k + 1)).is_some())
    {
        k += 1;
    }
    if k < end && tk.toks[k].kind == Tk::Word {
        let u = tk.w(k);
        if unit_key == 0 {
            if let Some(f) = duration(u) {
                v *= f;
                unit_key = U_SECONDS;
                k += 1;
            } else if let Some(f) = size(u) {
                v *= f;
                unit_key = U_BYTES;
                k += 1;
            } else if let Some(c) = currency(u) {
                unit_key = c;
                k += 1;
            } else if let Some((f, key)) = physical(u) {
                v *= f;
                unit_key = key;
                k += 1;
            } else if matches!(u, "percent" | "pct") {
                unit_key = U_PERCENT;
                k += 1;
            } else if matches!(u, "x" | "times") {
                unit_key = U_TIMES;
                k += 1;
            } else if u == "of" {
                unit_key = U_PART; // "31 of 40 sites", "half of the deploy jobs": a part of a whole
            } else if !tk.has(k, W_STOP | W_NEG | W_MONTH | W_HISTORY) {
                unit_key = tk.key(k);
                k += 1;
            }
        } else if currency(u) == Some(unit_key) {
            k += 1; // "$10k USD"
        }
    }
    // A rate is not an amount: "1,500 GB a day", "180 Mbit/s", "220 pallets per week".
    if unit_key != 0 && unit_key != U_PERCENT && unit_key != U_PART && k + 1 < end {
        let per = tk.is_any(k, &["a", "an", "per", "each", "every"]) || tk.punct(k) == Some('/');
        if per
            && tk.toks[k + 1].kind == Tk::Word
            && let Some(f) = duration(tk.w(k + 1))
        {
            unit_key = (unit_key.rotate_left(17) ^ f.to_bits()) | 1;
            k += 2;
        }
    }
    (Value::Num { unit: unit_key, v }, k)
}

/// Whether lower-cased word `w` is a unit of measure (a duration, a size, a currency, a
/// percentage), not a counted noun ("4 *episodes*") (ninth round).
pub(super) fn measure_unit(w: &str) -> bool {
    duration(w).is_some()
        || size(w).is_some()
        || currency(w).is_some()
        || physical(w).is_some()
        || matches!(w, "percent" | "pct")
}

/// Seconds per unit for duration words; a month is a twelfth of a year of 365.25 days.
fn duration(u: &str) -> Option<f64> {
    Some(match u {
        "mo" | "mos" | "month" | "months" => 2_629_800.0,
        "yr" | "yrs" | "year" | "years" => 31_557_600.0,
        "fortnight" | "fortnights" => 1_209_600.0,
        "ms" | "msec" | "millisecond" | "milliseconds" => 1e-3,
        "s" | "sec" | "secs" | "second" | "seconds" => 1.0,
        "min" | "mins" | "minute" | "minutes" => 60.0,
        "h" | "hr" | "hrs" | "hour" | "hours" => 3600.0,
        "d" | "day" | "days" => 86400.0,
        "w" | "wk" | "wks" | "week" | "weeks" => 604800.0,
        _ => return None,
    })
}

/// A temperature unit at token `k`: `°C`/`°F` (or `º`), *degrees* with *C, F, Celsius,
/// Fahrenheit, centigrade*; whether it is Celsius, and the index after it. *Degrees* alone is
/// no temperature (an angle, a grade).
fn temperature(tk: &Toks, k: usize, end: usize) -> Option<(bool, usize)> {
    let scale = |i: usize| -> Option<bool> {
        if i >= end || tk.toks[i].kind != Tk::Word {
            return None;
        }
        match tk.w(i) {
            "c" | "celsius" | "centigrade" => Some(true),
            "f" | "fahrenheit" => Some(false),
            _ => None,
        }
    };
    if matches!(tk.punct(k), Some('°' | 'º')) {
        return scale(k + 1).map(|c| (c, k + 2));
    }
    if tk.is_any(k, &["degrees", "degree", "deg"]) {
        if matches!(tk.punct(k + 1), Some('°' | 'º')) {
            return scale(k + 2).map(|c| (c, k + 3));
        }
        return scale(k + 1).map(|c| (c, k + 2));
    }
    // "28°C" may read as one word after the number.
    if k < end && tk.toks[k].kind == Tk::Word {
        return match tk.w(k) {
            "°c" | "ºc" => Some((true, k + 1)),
            "°f" | "ºf" => Some((false, k + 1)),
            _ => None,
        };
    }
    None
}

/// Lengths (in metres) and masses (in kilograms), with their unit key (thirteenth round). Not
/// *m* (a million: "2.5m"), *in*, *t*, *pound(s)* (money) or *l*.
fn physical(u: &str) -> Option<(f64, u64)> {
    Some(match u {
        "mm" | "millimetre" | "millimetres" | "millimeter" | "millimeters" => (1e-3, U_METRES),
        "cm" | "centimetre" | "centimetres" | "centimeter" | "centimeters" => (1e-2, U_METRES),
        "metre" | "metres" | "meter" | "meters" => (1.0, U_METRES),
        "km" | "kilometre" | "kilometres" | "kilometer" | "kilometers" => (1e3, U_METRES),
        "inch" | "inches" => (0.0254, U_METRES),
        "ft" | "foot" | "feet" => (0.3048, U_METRES),
        "yd" | "yard" | "yards" => (0.9144, U_METRES),
        "mi" | "mile" | "miles" => (1609.344, U_METRES),
        "g" | "gram" | "grams" | "gramme" | "grammes" => (1e-3, U_KILOGRAMS),
        "kg" | "kgs" | "kilo" | "kilos" | "kilogram" | "kilograms" => (1.0, U_KILOGRAMS),
        "tonne" | "tonnes" => (1e3, U_KILOGRAMS),
        "lb" | "lbs" => (0.453_592_37, U_KILOGRAMS),
        "oz" | "ounce" | "ounces" => (0.028_349_523, U_KILOGRAMS),
        _ => return None,
    })
}

/// Bytes per unit for size words (decimal; binary sizes compare within 2.5 %).
fn size(u: &str) -> Option<f64> {
    Some(match u {
        "byte" | "bytes" => 1.0,
        "kb" | "kib" | "kilobyte" | "kilobytes" => 1e3,
        "mb" | "mib" | "megabyte" | "megabytes" => 1e6,
        "gb" | "gib" | "gigabyte" | "gigabytes" => 1e9,
        "tb" | "tib" | "terabyte" | "terabytes" => 1e12,
        "pb" | "pib" | "petabyte" | "petabytes" => 1e15,
        _ => return None,
    })
}

pub(super) fn currency(u: &str) -> Option<u64> {
    Some(match u {
        "usd" | "dollar" | "dollars" => U_USD,
        "eur" | "euro" | "euros" => U_EUR,
        "gbp" | "pound" | "pounds" => U_GBP,
        _ => return None,
    })
}

fn compatible(x: &Value, y: &Value) -> bool {
    let agree = |p: u16, q: u16| p == 0 || q == 0 || p == q;
    match (x, y) {
        (Value::Date { y: y1, m: m1, d: d1 }, Value::Date { y: y2, m: m2, d: d2 }) => {
            agree(*y1, *y2) && agree(*m1 as u16, *m2 as u16) && agree(*d1 as u16, *d2 as u16)
        }
        (Value::Quarter { q: q1, y: y1 }, Value::Quarter { q: q2, y: y2 }) => q1 == q2 && agree(*y1, *y2),
        (Value::Version { parts: p, n: np }, Value::Version { parts: q, n: nq }) => {
            let m = (*np).min(*nq) as usize;
            p[..m] == q[..m]
        }
        (Value::Bool(p), Value::Bool(q)) => p == q,
        (Value::Currency(p), Value::Currency(q)) => p == q,
        (Value::Num { v: p, unit: u }, Value::Num { v: q, .. }) => {
            // Sizes: the 1,000 and 1,024 conventions meet; durations of four weeks or more:
            // "30 days" = "1 month".
            let tolerance = match *u {
                U_BYTES => 0.025,
                U_SECONDS if p.abs().max(q.abs()) >= 28.0 * 86400.0 => 0.035,
                // Temperatures: within half a degree Celsius ("82 °F" / "28 °C").
                U_CELSIUS => return (p - q).abs() <= 0.5,
                // Lengths and masses converted from other units are rounded when written ("3
                // feet" / "91 cm"): within 2 % of the larger, however small (no floor of 1, or
                // 12 mm would meet 20 mm in metres).
                U_METRES | U_KILOGRAMS => return (p - q).abs() <= 0.02 * p.abs().max(q.abs()),
                _ => 1e-9,
            };
            (p - q).abs() <= tolerance * p.abs().max(q.abs()).max(1.0)
        }
        _ => false,
    }
}
fn class(v: &Value) -> u8 {
    match v {
        Value::Date { .. } => 0,
        Value::Quarter { .. } => 1,
        Value::Version { .. } => 2,
        Value::Bool(_) => 3,
        Value::Num { .. } => 4,
        Value::Currency(_) => 5,
    }
}
fn of(s: &[Value], c: u8) -> impl Iterator<Item = &Value> {
    s.iter().filter(move |v| class(v) == c)
}
fn unit_of(v: &Value) -> u64 {
    match v {
        Value::Num { unit, .. } => *unit,
        _ => 0,
    }
}

/// Whether two claims state a quantity of one family: a date or quarter against a date or
/// quarter, a version, a yes/no, a currency, an amount of money in any currency, or numbers of
/// one unit (a number without a unit meets any number). Claims that both state values and
/// none of one family state different quantities ("Availability is 99.7 %" / "Median downlink
/// is 180 Mbit/s").
pub(super) fn slots_meet(a: &[Value], b: &[Value]) -> bool {
    let family = |v: &Value| match v {
        Value::Date { .. } | Value::Quarter { .. } => 0,
        Value::Version { .. } => 2,
        Value::Bool(_) => 3,
        Value::Currency(_) => 5,
        Value::Num { unit, .. } if [U_USD, U_EUR, U_GBP].contains(unit) => 6,
        Value::Num { unit: 0, .. } => 8,
        Value::Num { unit, .. } => *unit,
    };
    let unitless = |v: &Value| matches!(v, Value::Num { unit: 0, .. });
    a.iter().any(|x| {
        b.iter().any(|y| {
            family(x) == family(y)
                || (matches!(y, Value::Num { .. }) && unitless(x))
                || (matches!(x, Value::Num { .. }) && unitless(y))
        })
    })
}

/// Whether two values fill the same slot: the same kind, and for numbers the same unit.
pub(super) fn same_slot(x: &Value, y: &Value) -> bool {
    class(x) == class(y) && unit_of(x) == unit_of(y)
}

/// Whether two claims' typed values agree: some value of one is compatible with a value of
/// the other of the same kind (and unit, for numbers) — the claims state the same value.
pub(super) fn values_agree(a: &[Value], b: &[Value]) -> bool {
    a.iter().any(|x| b.iter().any(|y| class(x) == class(y) && unit_of(x) == unit_of(y) && compatible(x, y)))
}

/// Whether two claims' typed values cannot both hold. Per kind — dates, quarters, versions,
/// booleans — when both claims have values of that kind and no value of one is compatible
/// with a value of the other (dates agree on the fields both give; versions when one is a
/// prefix of the other). Numbers are compared per unit the same way; when the two claims
/// share no unit, each has exactly one number and one of them has no unit, those two are
/// compared.
pub(super) fn values_incompatible(a: &[Value], b: &[Value]) -> bool {
    incompatible(a, b, true)
}

/// [`values_incompatible`] without the last resort (one number each, one without a unit):
/// only values of one kind and unit that differ ("24 beds" / "30 beds", "90 days" / "6
/// months").
pub(super) fn values_clash(a: &[Value], b: &[Value]) -> bool {
    incompatible(a, b, false)
}

fn incompatible(a: &[Value], b: &[Value], loose: bool) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    for c in [0, 1, 2, 3, 5] {
        if of(a, c).next().is_some()
            && of(b, c).next().is_some()
            && !of(a, c).any(|x| of(b, c).any(|y| compatible(x, y)))
        {
            return true;
        }
    }
    let mut shared = false;
    for x in of(a, 4) {
        let u = unit_of(x);
        if !of(b, 4).any(|y| unit_of(y) == u) {
            continue;
        }
        shared = true;
        if !of(a, 4).filter(|x| unit_of(x) == u).any(|x| of(b, 4).filter(|y| unit_of(y) == u).any(|y| compatible(x, y)))
        {
            return true;
        }
        // A value both state is common ground (a window: "over the last 7 days"); each
        // stating another of the unit that the other does not is a clash ("420 ms …" / "180 ms
        // …", fifth round).
        let lone = |p: &[Value], q: &[Value]| {
            of(p, 4)
                .filter(|x| unit_of(x) == u)
                .any(|x| !of(q, 4).filter(|y| unit_of(y) == u).any(|y| compatible(x, y)))
        };
        if lone(a, b) && lone(b, a) {
            return true;
        }
    }
    if loose
        && !shared
        && let ([x], [y]) = (&of(a, 4).collect::<Vec<_>>()[..], &of(b, 4).collect::<Vec<_>>()[..])
        && (unit_of(x) == 0 || unit_of(y) == 0)
        && !compatible(x, y)
    {
        return true;
    }
    false
}

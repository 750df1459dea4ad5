//! The prefilter's walk: every occurrence of every anchor and keyword in a text, overlapping
//! (`sk-ant-` is seen under `sk-` too), in the order Aho-Corasick's overlapping search gives
//! them (by end, then by the automaton's order within a state).
//!
//! Why not `AhoCorasick::find_overlapping_iter`: a DFA walk is one chain of dependent loads,
//! the next state depends on the last, so the CPU waits on each (through the wasm component
//! more so: Cranelift reloads the table's base every byte). Here [`LANES`] walks over as many
//! parts of the text advance in one loop; their chains are independent and overlap in the CPU
//! (natively 142 -> 162 MB/s on the bench transcript; two walks gave 156). Each walk but the
//! first starts `max_pattern_len - 1` bytes before its part, so it sees every occurrence ending
//! in its part whole, and reports only those. The result is the same list, in the same order
//! (`tests::the_walks_find_what_one_walk_finds`).
//!
//! Not for: deciding what a hit means (`scan`).

use aho_corasick::Anchored;
use aho_corasick::automaton::{Automaton, StateID};
use aho_corasick::dfa::DFA;

/// One occurrence: the automaton's pattern index and its byte range `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pattern: u32,
    start: u32,
    end: u32,
}

impl Hit {
    pub fn pattern(&self) -> usize {
        self.pattern as usize
    }
    pub fn start(&self) -> usize {
        self.start as usize
    }
    pub fn end(&self) -> usize {
        self.end as usize
    }
}

/// Walks advanced together over as many parts of a text.
const LANES: usize = 4;

/// Below this many bytes one walk does it (more would save nothing measurable).
const LANES_MIN: usize = 4096;

/// Every occurrence of `dfa`'s patterns in `hay` (see the module documentation). `dfa` must
/// be built with `MatchKind::Standard`, unanchored, without a prefilter; `hay` must be shorter
/// than 4 GiB (a wasm32 address space is).
pub fn hits(dfa: &DFA, hay: &[u8]) -> Vec<Hit> {
    let start = dfa.start_state(Anchored::No).expect("the prefilter's automaton searches unanchored");
    let mut out = Vec::new();
    let max = dfa.max_pattern_len().max(1);
    if hay.len() < LANES_MIN.max(LANES * max) {
        let mut sid = start;
        for (i, &b) in hay.iter().enumerate() {
            sid = dfa.next_state(Anchored::No, sid, b);
            if dfa.is_special(sid) {
                push(dfa, sid, i + 1, &mut out);
            }
        }
        return out;
    }
    // Lane k reports the occurrences ending in `k*len..(k+1)*len` (the last lane: to the end);
    // it starts `max - 1` bytes before its part.
    let len = hay.len() / LANES;
    let from: [usize; LANES] = std::array::from_fn(|k| if k == 0 { 0 } else { k * len + 1 - max });
    let mut lanes: [Vec<Hit>; LANES] = std::array::from_fn(|_| Vec::new());
    let mut sid = [start; LANES];
    let steps = len;
    for i in 0..steps {
        for k in 0..LANES {
            sid[k] = dfa.next_state(Anchored::No, sid[k], hay[from[k] + i]);
        }
        for k in 0..LANES {
            if dfa.is_special(sid[k]) && (k == 0 || from[k] + i + 1 > k * len) {
                push(dfa, sid[k], from[k] + i + 1, &mut lanes[k]);
            }
        }
    }
    for k in 0..LANES {
        let stop = if k + 1 == LANES { hay.len() } else { (k + 1) * len };
        let mut s = sid[k];
        for (p, &b) in hay.iter().enumerate().take(stop).skip(from[k] + steps) {
            s = dfa.next_state(Anchored::No, s, b);
            if dfa.is_special(s) && (k == 0 || p + 1 > k * len) {
                push(dfa, s, p + 1, &mut lanes[k]);
            }
        }
    }
    let mut out = std::mem::take(&mut lanes[0]);
    for lane in &mut lanes[1..] {
        out.append(lane);
    }
    out
}

/// The occurrences ending at `end` that state `sid` holds (none for a special state that is
/// not a match state).
#[inline]
fn push(dfa: &DFA, sid: StateID, end: usize, out: &mut Vec<Hit>) {
    if !dfa.is_match(sid) {
        return;
    }
    for k in 0..dfa.match_len(sid) {
        let p = dfa.match_pattern(sid, k);
        let len = dfa.pattern_len(p);
        out.push(Hit { pattern: p.as_u32(), start: (end - len) as u32, end: end as u32 });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind, StartKind};

    fn both(patterns: &[&str], hay: &[u8]) {
        let dfa = DFA::builder()
            .match_kind(MatchKind::Standard)
            .start_kind(StartKind::Unanchored)
            .prefilter(false)
            .build(patterns)
            .unwrap();
        let ac = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::DFA))
            .build(patterns)
            .unwrap();
        let want: Vec<Hit> = ac
            .find_overlapping_iter(hay)
            .map(|m| Hit { pattern: m.pattern().as_u32(), start: m.start() as u32, end: m.end() as u32 })
            .collect();
        assert_eq!(hits(&dfa, hay), want);
    }

    #[test]
    fn the_walks_find_what_one_walk_finds() {
        let patterns = ["key", "Key", "token", "sk-", "sk-ant-", "ey", "-----BEGIN", "a"];
        // Occurrences across the middle, at both ends, overlapping, and every length around
        // the two-walk threshold.
        let unit = b"sk-ant-xyz token=1 KEY key -----BEGIN x monkey ";
        for n in [0usize, 1, 7, 4095, 4096, 4097, 4100, 9000, 10_007] {
            let hay: Vec<u8> = unit.iter().copied().cycle().take(n).collect();
            both(&patterns, &hay);
        }
        // A pattern straddling each boundary between parts, for every offset around it.
        for boundary in [2048, 4096, 6144] {
            for shift in 0..12 {
                let mut hay = vec![b'.'; 8192];
                let at = boundary - shift;
                hay[at..at + 7].copy_from_slice(b"sk-ant-");
                both(&patterns, &hay);
            }
        }
    }
}

//! The learning planner (ARCHITECTURE §10): concepts in, a learning graph out — units in
//! dependency order, each with its prerequisite edges, role, mastery signals and alternative
//! next moves, fitted to a time budget.
//!
//! The rules, in the order they run:
//!
//! 1. **Validation** (`invalid-input` otherwise): ids non-empty and unique, canonical ids
//!    non-empty, difficulty `1..=5`, novelty and relevance finite in `0..=1`, every
//!    prerequisite the id of a concept in the input.
//! 2. **Dedupe** on canonical identity + scope (both [`super::normalise`]d). The kept concept
//!    is the most relevant one (then the smallest id), so the result does not depend on input
//!    order; it takes the union of the group's prerequisites and evidence and the highest
//!    difficulty, novelty and relevance. Every other one is in `omitted` as a `duplicate`.
//!    A prerequisite naming a duplicate points at the kept concept; an edge between two
//!    duplicates disappears (they are the same concept); a concept naming itself is a cycle.
//! 3. **Merge** concepts into one unit only when their normalised objectives are equal and
//!    non-empty *and* their prerequisite sets are equal. A unit is `unit-<smallest concept
//!    id>`, as hard as its hardest concept and as valuable as its most valuable one.
//! 4. **Value** of a concept: `relevance × category weight × (0.75 + 0.25 × novelty)`, with
//!    weights architecture decision 1.25, pattern / anti-pattern / misconception 1.1, concept
//!    1.0, technology 0.9: §10 prioritises architecture decisions and causal links over
//!    vocabulary.
//! 5. **Cycles** (strongly connected components of more than one unit, or a unit that needs
//!    itself) are reported in `cycles`, never silently broken: their units keep every edge,
//!    and are placed together, after their outside prerequisites.
//! 6. **Roles.** A unit is a `prerequisite` when a kept unit outside its cycle needs it or
//!    another unit of its cycle, else an `objective`. The session objective is evidence on
//!    every objective unit.
//! 7. **Estimate** per unit at the neutral pace ([`super::unit_minutes`]): a standard lesson
//!    (`2 + difficulty` minutes) plus one 1-minute check-in per correct check needed (two for
//!    an objective unit, one for a prerequisite). The plan's estimate is their sum — from
//!    teaching moves, never from implementation size.
//! 8. **Budget.** While the estimate exceeds `budget_minutes`, drop the least valuable unit
//!    that no kept unit needs (a whole cycle at once, valued by its best unit), ties broken
//!    against the harder unit, then the larger id; roles and the estimate are recomputed after
//!    each drop. The most valuable unit (§10: architecture decisions and causal links first) is
//!    cut last: when only it and its prerequisites remain, its prerequisites go first (least
//!    valuable first; its lesson covers what they would have taught), then it. Each dropped
//!    concept is in `omitted` as `budget`. A budget below the most valuable unit's own estimate
//!    leaves an empty plan, with everything in `omitted`.
//! 9. **Order**: Kahn's algorithm over the cycles-condensed graph; among ready units, value
//!    descending, then difficulty ascending, then id. The other ready units at each choice are
//!    the unit's `alternatives` (best first, at most [`MAX_ALTERNATIVES`]).
//!
//! Not for: extracting concepts or writing objectives (the agent does), or pacing a session
//! ([`super::next_move`] does, from the learner's confidence).

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use crate::maps::HashMap;

use super::identity::normalise;
use super::pacing::unit_minutes;
pub use super::types::UnitRole;
use super::types::{ConfidenceLevel, EvidenceRef, LearningError, invalid};

/// At most this many alternative next moves per unit.
pub const MAX_ALTERNATIVES: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConceptCategory {
    Technology,
    Concept,
    Pattern,
    AntiPattern,
    ArchitectureDecision,
    Misconception,
}

impl ConceptCategory {
    /// How much §10's planner favours the category.
    pub fn weight(self) -> f64 {
        match self {
            ConceptCategory::ArchitectureDecision => 1.25,
            ConceptCategory::Pattern | ConceptCategory::AntiPattern | ConceptCategory::Misconception => 1.1,
            ConceptCategory::Concept => 1.0,
            ConceptCategory::Technology => 0.9,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Concept {
    pub id: String,
    pub canonical_id: String,
    pub scope: String,
    pub label: String,
    pub category: ConceptCategory,
    pub objective: String,
    pub prerequisites: Vec<String>,
    pub difficulty: u8,
    pub novelty: f64,
    pub relevance: f64,
    pub evidence: Vec<EvidenceRef>,
}

/// `relevance × category weight × (0.75 + 0.25 × novelty)`, in `0..=1.25`.
pub fn concept_value(c: &Concept) -> f64 {
    c.relevance * c.category.weight() * (0.75 + 0.25 * c.novelty)
}

#[derive(Clone, Debug, PartialEq)]
pub struct LearningUnit {
    pub id: String,
    pub concept_ids: Vec<String>,
    pub label: String,
    pub role: UnitRole,
    pub prerequisites: Vec<String>,
    pub objective: String,
    pub difficulty: u8,
    pub value: f64,
    pub estimated_minutes: u32,
    pub mastery_signals: Vec<String>,
    pub alternatives: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OmissionKind {
    Duplicate,
    Budget,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Omission {
    pub concept_id: String,
    pub kind: OmissionKind,
    pub reason: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct LearningPlan {
    pub units: Vec<LearningUnit>,
    pub cycles: Vec<Vec<String>>,
    pub estimated_minutes: u32,
    pub omitted: Vec<Omission>,
}

/// A unit while planning.
struct Draft {
    id: String,
    concepts: Vec<usize>,
    label: String,
    objective: String,
    difficulty: u8,
    value: f64,
    prerequisites: BTreeSet<usize>,
}

/// Plan order among ready units: value descending, difficulty ascending, id.
fn key_cmp(a: &Draft, b: &Draft) -> Ordering {
    b.value.total_cmp(&a.value).then(a.difficulty.cmp(&b.difficulty)).then_with(|| a.id.cmp(&b.id))
}

fn validate(concepts: &[Concept]) -> Result<HashMap<&str, usize>, LearningError> {
    let mut index = HashMap::with_capacity_and_hasher(concepts.len(), Default::default());
    for (i, c) in concepts.iter().enumerate() {
        if c.id.trim().is_empty() {
            return Err(invalid(format!("concept {i} has an empty id")));
        }
        if index.insert(c.id.as_str(), i).is_some() {
            return Err(invalid(format!("concept id `{}` appears twice", c.id)));
        }
        if c.canonical_id.trim().is_empty() {
            return Err(invalid(format!("concept `{}` has an empty canonical id", c.id)));
        }
        if !(1..=5).contains(&c.difficulty) {
            return Err(invalid(format!("concept `{}` has difficulty {} (expected 1..=5)", c.id, c.difficulty)));
        }
        for (name, v) in [("novelty", c.novelty), ("relevance", c.relevance)] {
            if !(0.0..=1.0).contains(&v) {
                return Err(invalid(format!("concept `{}` has {name} {v} (expected 0..=1)", c.id)));
            }
        }
    }
    for c in concepts {
        if let Some(p) = c.prerequisites.iter().find(|p| !index.contains_key(p.as_str())) {
            return Err(invalid(format!("concept `{}` lists unknown prerequisite `{p}`", c.id)));
        }
    }
    Ok(index)
}

/// Strongly connected components (iterative Tarjan): the component number of every node.
fn components(succ: &[BTreeSet<usize>]) -> Vec<usize> {
    let n = succ.len();
    let succ: Vec<Vec<usize>> = succ.iter().map(|s| s.iter().copied().collect()).collect();
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut on_stack, mut stack) = (vec![false; n], Vec::new());
    let (mut comp, mut next, mut ncomp) = (vec![usize::MAX; n], 0, 0);
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut call = vec![(root, 0usize)];
        (index[root], low[root]) = (next, next);
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&(v, i)) = call.last() {
            if let Some(&w) = succ[v].get(i) {
                call.last_mut().expect("non-empty").1 += 1;
                if index[w] == usize::MAX {
                    (index[w], low[w]) = (next, next);
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}

/// Build the learning graph for `concepts` within `budget_minutes` (see the module doc).
pub fn plan(concepts: &[Concept], budget_minutes: u32) -> Result<LearningPlan, LearningError> {
    let index = validate(concepts)?;
    let mut omitted = Vec::new();

    // 2. Dedupe on canonical identity + scope.
    let mut groups: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for (i, c) in concepts.iter().enumerate() {
        groups.entry((normalise(&c.canonical_id), normalise(&c.scope))).or_default().push(i);
    }
    let mut rep_of = vec![0usize; concepts.len()];
    let mut reps: Vec<(usize, Vec<usize>)> = Vec::new();
    for ((canonical, scope), mut members) in groups {
        members.sort_by(|&a, &b| {
            let (ca, cb) = (&concepts[a], &concepts[b]);
            cb.relevance.total_cmp(&ca.relevance).then_with(|| ca.id.cmp(&cb.id))
        });
        let rep = members[0];
        for &m in &members {
            rep_of[m] = rep;
        }
        let mut dups: Vec<usize> = members[1..].to_vec();
        dups.sort_by(|&a, &b| concepts[a].id.cmp(&concepts[b].id));
        for d in dups {
            omitted.push(Omission {
                concept_id: concepts[d].id.clone(),
                kind: OmissionKind::Duplicate,
                reason: format!(
                    "duplicate of `{}`: same canonical identity `{canonical}` and scope `{scope}`",
                    concepts[rep].id
                ),
            });
        }
        reps.push((rep, members));
    }
    reps.sort_by(|a, b| concepts[a.0].id.cmp(&concepts[b.0].id));

    // Merged concept nodes: prerequisites (as kept concepts), a self-loop flag, and merged numbers.
    struct Node {
        rep: usize,
        prerequisites: BTreeSet<usize>,
        self_loop: bool,
        difficulty: u8,
        value: f64,
        objective: String,
    }
    let nodes: Vec<Node> = reps
        .iter()
        .map(|(rep, members)| {
            let mut prerequisites = BTreeSet::new();
            let mut self_loop = false;
            for &m in members {
                for p in &concepts[m].prerequisites {
                    let target = rep_of[index[p.as_str()]];
                    if target != *rep {
                        prerequisites.insert(target);
                    } else if *p == concepts[m].id {
                        self_loop = true;
                    }
                }
            }
            let merged = Concept {
                relevance: members.iter().map(|&m| concepts[m].relevance).fold(0.0, f64::max),
                novelty: members.iter().map(|&m| concepts[m].novelty).fold(0.0, f64::max),
                ..concepts[*rep].clone()
            };
            let mut by_id = members.clone();
            by_id.sort_by(|&a, &b| concepts[a].id.cmp(&concepts[b].id));
            let objective = std::iter::once(*rep)
                .chain(by_id)
                .map(|m| concepts[m].objective.trim())
                .find(|o| !o.is_empty())
                .unwrap_or("")
                .to_string();
            Node {
                rep: *rep,
                prerequisites,
                self_loop,
                difficulty: members.iter().map(|&m| concepts[m].difficulty).max().unwrap_or(1),
                value: concept_value(&merged),
                objective,
            }
        })
        .collect();

    // 3. Merge into units: same normalised (non-empty) objective and same prerequisites.
    let mut unit_groups: BTreeMap<(String, Vec<usize>, usize), Vec<usize>> = BTreeMap::new();
    for (n, node) in nodes.iter().enumerate() {
        let objective = normalise(&node.objective);
        let alone = objective.is_empty() || node.self_loop;
        let key = (objective, node.prerequisites.iter().copied().collect(), if alone { n + 1 } else { 0 });
        unit_groups.entry(key).or_default().push(n);
    }
    let node_of_rep: HashMap<usize, usize> = nodes.iter().enumerate().map(|(n, node)| (node.rep, n)).collect();
    let mut unit_of_rep: HashMap<usize, usize> = HashMap::default();
    let mut drafts: Vec<Draft> = Vec::new();
    let mut self_loops: Vec<bool> = Vec::new();
    for members in unit_groups.into_values() {
        let u = drafts.len();
        let mut concept_idx: Vec<usize> = members.iter().map(|&n| nodes[n].rep).collect();
        concept_idx.sort_by(|&a, &b| concepts[a].id.cmp(&concepts[b].id));
        for &c in &concept_idx {
            unit_of_rep.insert(c, u);
        }
        let label = concept_idx.iter().map(|&c| concepts[c].label.trim()).collect::<Vec<_>>().join(" + ");
        let objective =
            concept_idx.iter().map(|c| nodes[node_of_rep[c]].objective.clone()).find(|o| !o.is_empty()).unwrap_or_else(
                || format!("Explain what {label} is, why this implementation needs it, and what fails without it"),
            );
        drafts.push(Draft {
            id: format!("unit-{}", concepts[concept_idx[0]].id),
            label,
            objective,
            difficulty: members.iter().map(|&n| nodes[n].difficulty).max().unwrap_or(1),
            value: members.iter().map(|&n| nodes[n].value).fold(0.0, f64::max),
            prerequisites: BTreeSet::new(),
            concepts: concept_idx,
        });
        self_loops.push(members.iter().any(|&n| nodes[n].self_loop));
    }
    for node in &nodes {
        let u = unit_of_rep[&node.rep];
        let prereqs: Vec<usize> = node.prerequisites.iter().map(|p| unit_of_rep[p]).collect();
        drafts[u].prerequisites.extend(prereqs);
    }
    for (u, &looped) in self_loops.iter().enumerate() {
        if looped {
            drafts[u].prerequisites.insert(u);
        }
    }

    // 5. Cycles.
    let n = drafts.len();
    let prereq_sets: Vec<BTreeSet<usize>> = drafts.iter().map(|d| d.prerequisites.clone()).collect();
    let comp = components(&prereq_sets);
    let ncomp = comp.iter().map(|c| c + 1).max().unwrap_or(0);
    let mut comp_members: Vec<Vec<usize>> = vec![Vec::new(); ncomp];
    for (u, &c) in comp.iter().enumerate() {
        comp_members[c].push(u);
    }
    for members in &mut comp_members {
        members.sort_by(|&a, &b| key_cmp(&drafts[a], &drafts[b]));
    }
    let cyclic =
        |c: usize| comp_members[c].len() > 1 || drafts[comp_members[c][0]].prerequisites.contains(&comp_members[c][0]);
    let mut dependents: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    for (u, d) in drafts.iter().enumerate() {
        for &p in &d.prerequisites {
            dependents[p].insert(u);
        }
    }

    // 6.–8. Roles, estimate, budget.
    let mut kept = vec![true; n];
    // A component is needed when a kept unit outside it needs one of its units.
    let needed = |c: usize, kept: &[bool]| {
        comp_members[c].iter().any(|&m| dependents[m].iter().any(|&d| kept[d] && comp[d] != c))
    };
    let role = |u: usize, kept: &[bool]| {
        if needed(comp[u], kept) { UnitRole::Prerequisite } else { UnitRole::Objective }
    };
    let minutes = |u: usize, kept: &[bool]| unit_minutes(drafts[u].difficulty, role(u, kept), ConfidenceLevel::Neutral);
    // The most valuable component is cut last (§10: architecture decisions and causal links
    // first), after everything else, its own prerequisites included. It does not depend on the
    // budget, so the sequence of cuts does not either and a larger budget keeps a superset.
    let by_value = |a: &usize, b: &usize| key_cmp(&drafts[comp_members[*a][0]], &drafts[comp_members[*b][0]]);
    let protected = (0..ncomp).min_by(by_value);
    loop {
        let total: u32 = (0..n).filter(|&u| kept[u]).map(|u| minutes(u, &kept)).sum();
        if total <= budget_minutes {
            break;
        }
        let live = |c: &usize| kept[comp_members[*c][0]];
        // Least valuable component that no kept unit outside it needs; else the least valuable
        // prerequisite of the protected one; else the protected one itself.
        let unneeded = (0..ncomp).filter(live).filter(|&c| Some(c) != protected && !needed(c, &kept)).max_by(by_value);
        let prerequisite = || (0..ncomp).filter(live).filter(|&c| Some(c) != protected).max_by(by_value);
        let worst = unneeded
            .or_else(prerequisite)
            .or(protected.filter(live))
            .expect("a kept unit remains while the estimate exceeds the budget");
        let why = if needed(worst, &kept) {
            let top = &drafts[comp_members[protected.expect("a component")][0]];
            format!(
                "a prerequisite, cut before the more valuable `{}` ({}) it prepares (architecture decisions and causal \
                 links first); that lesson covers what it needs",
                top.id, top.label
            )
        } else {
            "no kept unit needs it".to_string()
        };
        let members = comp_members[worst].clone();
        let cycle_note = if cyclic(worst) {
            format!(
                ", together with the rest of its dependency cycle ({})",
                members.iter().map(|&u| format!("`{}`", drafts[u].id)).collect::<Vec<_>>().join(", ")
            )
        } else {
            String::new()
        };
        for &u in &members {
            let d = &drafts[u];
            let reason = format!(
                "budget: unit `{}` ({}; value {:.2}, ~{} min) dropped to fit the {budget_minutes}-minute budget \
                 (plan was {total} min){cycle_note}; {why}",
                d.id,
                d.label,
                d.value,
                minutes(u, &kept)
            );
            for &c in &d.concepts {
                omitted.push(Omission {
                    concept_id: concepts[c].id.clone(),
                    kind: OmissionKind::Budget,
                    reason: reason.clone(),
                });
            }
        }
        for u in members {
            kept[u] = false;
        }
    }

    // 9. Order: Kahn over components, best ready component first.
    let mut placed_comp = vec![false; ncomp];
    let mut order: Vec<usize> = Vec::new();
    let mut alternatives: Vec<Vec<usize>> = vec![Vec::new(); n];
    let kept_comps: Vec<usize> = (0..ncomp).filter(|&c| kept[comp_members[c][0]]).collect();
    let ready = |c: usize, placed: &[bool]| {
        comp_members[c]
            .iter()
            .flat_map(|&u| drafts[u].prerequisites.iter())
            .all(|&p| comp[p] == c || placed[comp[p]] || !kept[p])
    };
    while order.len() < kept.iter().filter(|&&k| k).count() {
        let mut candidates: Vec<usize> =
            kept_comps.iter().copied().filter(|&c| !placed_comp[c] && ready(c, &placed_comp)).collect();
        candidates.sort_by(|&a, &b| key_cmp(&drafts[comp_members[a][0]], &drafts[comp_members[b][0]]));
        let chosen = candidates[0];
        let mut others: Vec<usize> = candidates[1..].iter().flat_map(|&c| comp_members[c].iter().copied()).collect();
        others.sort_by(|&a, &b| key_cmp(&drafts[a], &drafts[b]));
        others.truncate(MAX_ALTERNATIVES);
        for &u in &comp_members[chosen] {
            alternatives[u] = others.clone();
            order.push(u);
        }
        placed_comp[chosen] = true;
    }

    let position: HashMap<usize, usize> = order.iter().enumerate().map(|(i, &u)| (u, i)).collect();
    let mut units = Vec::with_capacity(order.len());
    for &u in &order {
        let d = &drafts[u];
        let mut prerequisites: Vec<usize> = d.prerequisites.iter().copied().filter(|&p| kept[p]).collect();
        prerequisites.sort_by_key(|p| position[p]);
        let r = role(u, &kept);
        let mastery_signals = match r {
            UnitRole::Objective => vec![
                format!("a correct real-world scenario question on {}, mapped back to the implementation", d.label),
                format!(
                    "a correct technical question on {} of another intent (causal reasoning, tradeoff, debugging or \
                     system design); a declared expert needs only this one",
                    d.label
                ),
            ],
            UnitRole::Prerequisite => {
                vec![format!(
                    "one correct check applying {} to this implementation, at every confidence level",
                    d.label
                )]
            }
        };
        units.push(LearningUnit {
            id: d.id.clone(),
            concept_ids: d.concepts.iter().map(|&c| concepts[c].id.clone()).collect(),
            label: d.label.clone(),
            role: r,
            prerequisites: prerequisites.into_iter().map(|p| drafts[p].id.clone()).collect(),
            objective: d.objective.clone(),
            difficulty: d.difficulty,
            value: d.value,
            estimated_minutes: minutes(u, &kept),
            mastery_signals,
            alternatives: alternatives[u].iter().map(|&a| drafts[a].id.clone()).collect(),
        });
    }
    let mut cycle_comps: Vec<usize> = kept_comps.iter().copied().filter(|&c| cyclic(c)).collect();
    cycle_comps.sort_by_key(|&c| position[&comp_members[c][0]]);
    let cycles = cycle_comps
        .into_iter()
        .map(|c| {
            let mut members = comp_members[c].clone();
            members.sort_by_key(|u| position[u]);
            members.into_iter().map(|u| drafts[u].id.clone()).collect()
        })
        .collect();
    let estimated_minutes = units.iter().map(|u| u.estimated_minutes).sum();
    Ok(LearningPlan { units, cycles, estimated_minutes, omitted })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn concept(id: &str, prereqs: &[&str]) -> Concept {
        Concept {
            id: id.into(),
            canonical_id: id.into(),
            scope: "repo".into(),
            label: id.into(),
            category: ConceptCategory::Concept,
            objective: String::new(),
            prerequisites: prereqs.iter().map(|p| p.to_string()).collect(),
            difficulty: 3,
            novelty: 0.5,
            relevance: 0.5,
            evidence: vec![],
        }
    }

    #[test]
    fn components_find_cycles_and_singletons() {
        // 0 -> 1 -> 2 -> 0, 3 alone, 4 -> 4.
        let succ: Vec<BTreeSet<usize>> = vec![[1].into(), [2].into(), [0].into(), BTreeSet::new(), [4].into()];
        let comp = components(&succ);
        assert_eq!(comp[0], comp[1]);
        assert_eq!(comp[1], comp[2]);
        assert_ne!(comp[0], comp[3]);
        assert_ne!(comp[3], comp[4]);
    }

    #[test]
    fn value_prefers_architecture_over_vocabulary() {
        let mut a = concept("a", &[]);
        a.category = ConceptCategory::ArchitectureDecision;
        let mut t = concept("t", &[]);
        t.category = ConceptCategory::Technology;
        assert!(concept_value(&a) > concept_value(&t));
        let p = plan(&[t, a], 100).unwrap();
        assert_eq!(p.units[0].id, "unit-a");
        assert_eq!(p.units[0].alternatives, vec!["unit-t"]);
    }

    #[test]
    fn validation_rejects_broken_input() {
        let mut bad = concept("a", &["ghost"]);
        assert!(plan(&[bad.clone()], 10).unwrap_err().to_string().contains("ghost"));
        bad.prerequisites.clear();
        bad.difficulty = 6;
        assert!(plan(&[bad.clone()], 10).is_err());
        bad.difficulty = 3;
        bad.relevance = f64::NAN;
        assert!(plan(&[bad], 10).is_err());
        assert!(plan(&[concept("a", &[]), concept("a", &[])], 10).unwrap_err().to_string().contains("twice"));
    }
}

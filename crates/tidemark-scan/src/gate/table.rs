//! A gate's [`Table`]: what parsing its patterns tells, in the form `derived.bin` ships it.

use std::borrow::Cow;
use std::collections::HashMap;

use regex_syntax::hir::literal::{ExtractKind, Extractor};

use super::{
    Branch, Gate, Group, MAX_NEEDS, Owner, Owners, Start, branches, lower_case, prefixes, required,
    required_lists,
};
#[cfg(test)]
use crate::shipped::Writer;
use crate::shipped::{self, Reader};

/// What a gate knows of its patterns before the automaton is built: everything that comes from
/// parsing them, and all that `shipped.rs` keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Table {
    literals: Vec<Cow<'static, [u8]>>,
    owners: Owners,
    branches: Vec<Branch>,
    pub(super) len: usize,
}

impl Table {
    /// Parses every pattern and lists the literals each branch needs (see the module docs), or
    /// `None` if one fails to parse.
    pub(super) fn derive<S: AsRef<str>>(sources: &[S], word_starts: &[bool]) -> Option<Self> {
        let mut extractor = Extractor::new();
        extractor.kind(ExtractKind::Prefix);
        let mut literals: Vec<Vec<u8>> = Vec::new();
        let mut owners: Vec<Vec<Owner>> = Vec::new();
        let mut known: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut add = |literal: &[u8], owner: Owner| -> Option<()> {
            let literal = literal.to_ascii_lowercase();
            match known.get(&literal) {
                // Two spellings of one literal that differ only in case are one now.
                Some(&at) => {
                    let owned = owners.get_mut(at)?;
                    if !owned.contains(&owner) {
                        owned.push(owner);
                    }
                }
                None => {
                    known.insert(literal.clone(), literals.len());
                    literals.push(literal);
                    owners.push(vec![owner]);
                }
            }
            Some(())
        };
        let mut parts: Vec<Branch> = Vec::new();
        for (index, source) in sources.iter().enumerate() {
            let hir = lower_case(&regex_syntax::Parser::new().parse(source.as_ref()).ok()?);
            for branch in branches(&hir) {
                let part = parts.len();
                let start = match Start::of(branch) {
                    Start::Any if word_starts.get(index) == Some(&true) => Start::AfterNonWord,
                    start => start,
                };
                let always = match prefixes(&extractor, branch) {
                    Some(found) => {
                        for literal in &found {
                            add(literal, Owner::Prefix(part))?;
                        }
                        false
                    }
                    None => true,
                };
                // Inner lists from several required pieces, each narrowing the branch further
                // (from pieces after the first when the prefix literals already speak for it).
                let mut lists = required_lists(branch, &extractor, !always);
                if lists.is_empty() {
                    lists.extend(required(branch, &extractor));
                }
                for (list, literals) in lists.iter().enumerate() {
                    let list = u8::try_from(list).ok()?;
                    for (literal, word) in literals {
                        add(literal, Owner::Inner(part, list, *word))?;
                    }
                }
                let needs = u8::try_from(lists.len()).ok()?;
                parts.push(Branch { pattern: index, start, always, needs });
            }
        }
        Some(Self {
            literals: literals.into_iter().map(Cow::Owned).collect(),
            owners: Owners::from_lists(owners),
            branches: parts,
            len: sources.len(),
        })
    }

    /// The gate: the literals in one automaton, read with ASCII case ignored.
    pub(super) fn build(self) -> Option<Gate> {
        let mut groups: Vec<Group> = Vec::new();
        for (index, literal) in self.literals.into_iter().enumerate() {
            let lead = literal.iter().copied().find(|byte| !byte.is_ascii());
            match groups.iter_mut().find(|group| group.lead == lead) {
                Some(group) => group.push(index, literal),
                None => {
                    let mut group = Group::new(lead);
                    group.push(index, literal);
                    groups.push(group);
                }
            }
        }
        Some(Gate { groups, owners: self.owners, branches: self.branches, len: self.len })
    }

    /// The table in the form `shipped.rs` keeps.
    #[cfg(test)]
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut out = Writer::default();
        out.u32(self.len);
        out.u32(self.literals.len());
        for (index, literal) in self.literals.iter().enumerate() {
            let owners = self.owners.of(index);
            out.bytes(literal);
            out.u32(owners.len());
            for owner in owners {
                // 0 for a prefix; 1 + 2 * list + word for an inner literal.
                let (tag, part) = match *owner {
                    Owner::Prefix(part) => (0, part),
                    Owner::Inner(part, list, word) => (1 + 2 * list + u8::from(word), part),
                };
                out.byte(tag);
                out.u32(part);
            }
        }
        out.u32(self.branches.len());
        for branch in &self.branches {
            out.u32(branch.pattern);
            out.byte(match branch.start {
                Start::Any => 0,
                Start::Boundary => 1,
                Start::AfterNonWord => 2,
            });
            out.byte(u8::from(branch.always) | branch.needs << 1);
        }
        out.into_bytes()
    }

    /// Reads [`to_bytes`](Self::to_bytes); `None` for anything malformed or out of range.
    pub(crate) fn from_bytes(bytes: &'static [u8]) -> Option<Self> {
        let mut reader = Reader::new(bytes);
        let len = reader.u32()?;
        let count = reader.u32()?;
        let mut literals = Vec::with_capacity(count.min(bytes.len()));
        let mut owners = Owners { all: Vec::with_capacity(count.min(bytes.len())), starts: vec![0] };
        for _ in 0..count {
            literals.push(Cow::Borrowed(reader.bytes()?));
            for _ in 0..reader.u32()? {
                let tag = reader.byte()?;
                let part = reader.u32()?;
                owners.all.push(match tag {
                    0 => Owner::Prefix(part),
                    tag if usize::from(tag) <= 2 * MAX_NEEDS => {
                        Owner::Inner(part, (tag - 1) / 2, (tag - 1) % 2 == 1)
                    }
                    _ => return None,
                });
            }
            owners.starts.push(owners.all.len());
        }
        let count = reader.u32()?;
        let mut branches = Vec::with_capacity(count.min(bytes.len()));
        for _ in 0..count {
            let pattern = reader.u32()?;
            let start = match reader.byte()? {
                0 => Start::Any,
                1 => Start::Boundary,
                2 => Start::AfterNonWord,
                _ => return None,
            };
            let flags = reader.byte()?;
            let needs = flags >> 1;
            if pattern >= len || usize::from(needs) > MAX_NEEDS {
                return None;
            }
            branches.push(Branch { pattern, start, always: flags & 1 != 0, needs });
        }
        let parts = branches.len();
        // Every owner names a branch, and an inner list that branch has.
        let in_range = owners.all.iter().all(|owner| match *owner {
            Owner::Prefix(part) => part < parts,
            Owner::Inner(part, list, _) => branches.get(part).is_some_and(|branch| list < branch.needs),
        });
        (reader.done() && in_range).then_some(Self { literals, owners, branches, len })
    }
}

/// The fingerprint a gate's table is shipped under: its sources and which of them start words.
pub(crate) fn gate_key<S: AsRef<str>>(sources: &[S], word_starts: &[bool]) -> u64 {
    let flags: Vec<u8> = word_starts.iter().map(|&start| u8::from(start)).collect();
    shipped::fingerprint(sources.iter().map(|source| source.as_ref().as_bytes()).chain([flags.as_slice()]))
}

/// The table of a gate over `sources`, derived the slow way (for the test that checks the file).
#[cfg(test)]
pub(crate) fn derive_table(sources: &[String], word_starts: &[bool]) -> Option<Table> {
    Table::derive(sources, word_starts)
}

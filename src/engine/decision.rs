//! The decisions the rules wait for from either side: one queue each ruleset keeps of
//! its own decision type, answered front first. A decision that an answer causes (a
//! retreat after a loss) goes in front; one that waits its turn goes behind.

use std::collections::VecDeque;

/// The decisions pending, the one to answer first in front.
#[derive(Clone, Debug)]
pub struct Decisions<D>(VecDeque<D>);

impl<D> Default for Decisions<D> {
    fn default() -> Self {
        Self(VecDeque::new())
    }
}

impl<D> Decisions<D> {
    /// The decision to answer now.
    pub fn front(&self) -> Option<&D> {
        self.0.front()
    }

    pub fn front_mut(&mut self) -> Option<&mut D> {
        self.0.front_mut()
    }

    /// Takes the decision answered now off the queue.
    pub fn pop_front(&mut self) -> Option<D> {
        self.0.pop_front()
    }

    /// A decision to answer before those pending.
    pub fn push_front(&mut self, decision: D) {
        self.0.push_front(decision);
    }

    /// Decisions to answer after those pending, in order.
    pub fn extend(&mut self, decisions: impl IntoIterator<Item = D>) {
        self.0.extend(decisions);
    }

    /// Waits for `decision` alone: whatever was pending is dropped.
    pub fn set(&mut self, decision: D) {
        self.0.clear();
        self.0.push_back(decision);
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &D> {
        self.0.iter()
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut D> {
        self.0.iter_mut()
    }

    /// Takes the decision at `index` off the queue: one of several a player may answer
    /// in the order he chooses.
    pub fn remove(&mut self, index: usize) -> Option<D> {
        self.0.remove(index)
    }

    /// Keeps only the decisions `keep` accepts, in order.
    pub fn retain(&mut self, keep: impl FnMut(&D) -> bool) {
        self.0.retain(keep);
    }
}

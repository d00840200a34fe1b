//! [`Segmented`]: a summary that grows by new segments behind the old ones, so a compaction leaves the front of the prompt, and the provider's cache of it, as it was.

use std::fmt;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tidemark_core::{CompactionError, Compactor, ConversationId, Message, Part, Role, TokenCounter, units};

/// An artifact that can stand for several of its kind at once: what [`Segmented`] hands its compactor when it merges segments.
///
/// `join` must keep what each part says, in order; the compactor applies its
/// own cap when it folds the evicted messages into the joined carry-over.
pub trait Join: Sized {
    /// One artifact holding what `parts` hold, oldest first.
    fn join(parts: &[&Self]) -> Self;
}

impl Join for crate::TemplateSummary {
    fn join(parts: &[&Self]) -> Self {
        let lines = parts.iter().flat_map(|part| part.lines.iter().cloned()).collect();
        let dropped = parts.iter().fold(0u64, |sum, part| sum.saturating_add(part.dropped));
        Self::new(lines, dropped)
    }
}

impl Join for crate::LlmSummary {
    fn join(parts: &[&Self]) -> Self {
        let text =
            parts.iter().map(|part| part.text.trim()).filter(|text| !text.is_empty()).collect::<Vec<_>>();
        let rolls = parts.iter().map(|part| part.rolls).max().unwrap_or(0);
        Self::new(text.join("\n\n"), rolls)
    }
}

/// A list of lines (the artifact of `tidemark-testkit`'s reference compactor) joins by concatenation.
impl Join for Vec<String> {
    fn join(parts: &[&Self]) -> Self {
        parts.iter().flat_map(|part| part.iter().cloned()).collect()
    }
}

/// One segment of a [`Segments`] summary: the compactor's artifact and its text as first rendered, kept byte for byte.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "A: Serialize", deserialize = "A: DeserializeOwned"))]
#[non_exhaustive]
pub struct Segment<A> {
    /// The wrapped compactor's artifact for this segment.
    pub artifact: A,
    /// The segment's rendered text. It is stored rather than rendered again so that it never changes while the segment lives.
    pub text: String,
}

/// The artifact of [`Segmented`]: summary segments, oldest first.
///
/// It also reads the artifact of the wrapped compactor alone, as a
/// conversation stored before it was segmented holds: that rolling summary
/// becomes the first segment (with no stored text yet, so it is rendered by
/// the compactor), and the next compaction appends behind it.
///
/// ```
/// use tidemark_compaction::{Segments, TemplateSummary};
///
/// let rolling = r#"{"lines":["user: ship it on Friday"],"dropped":0}"#;
/// let adopted: Segments<TemplateSummary> = serde_json::from_str(rolling)?;
/// assert_eq!(adopted.segments.len(), 1);
/// assert_eq!(adopted.segments[0].artifact.lines, ["user: ship it on Friday"]);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "A: Serialize", deserialize = "A: DeserializeOwned"), from = "Stored<A>")]
#[non_exhaustive]
pub struct Segments<A> {
    /// The segments, oldest first; never empty once written by [`Segmented`].
    pub segments: Vec<Segment<A>>,
    /// How many merges folded the segments into one over the summary's life.
    #[serde(default)]
    pub merges: u64,
}

/// What a stored artifact may be: segments, or the wrapped compactor's rolling artifact from before.
#[derive(Deserialize)]
#[serde(untagged, bound(deserialize = "A: DeserializeOwned"))]
enum Stored<A> {
    Segments {
        segments: Vec<Segment<A>>,
        #[serde(default)]
        merges: u64,
    },
    Rolling(A),
}

impl<A> From<Stored<A>> for Segments<A> {
    fn from(stored: Stored<A>) -> Self {
        match stored {
            Stored::Segments { segments, merges } => Self { segments, merges },
            Stored::Rolling(artifact) => {
                Self { segments: vec![Segment { artifact, text: String::new() }], merges: 0 }
            }
        }
    }
}

impl<A> Segments<A> {
    /// The bytes of every segment's text.
    pub fn bytes(&self) -> usize {
        self.segments.iter().map(|segment| segment.text.len()).sum()
    }
}

/// When [`Segmented`] merges its segments into one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SegmentLimits {
    /// The most segments a summary holds; the compaction that would add one more merges instead.
    pub max_segments: usize,
    /// The most bytes of segment text a summary holds, counting the new segment at the size of the largest one so far.
    pub max_bytes: usize,
}

impl SegmentLimits {
    /// Limits of `max_segments` segments (at least one) and `max_bytes` bytes of text.
    pub fn new(max_segments: usize, max_bytes: usize) -> Self {
        Self { max_segments: max_segments.max(1), max_bytes }
    }
}

impl Default for SegmentLimits {
    /// Four segments and 16 KiB of text: about 4,000 tokens of English, half of an 8,000-token window.
    fn default() -> Self {
        Self::new(4, 16 * 1024)
    }
}

/// Sizes for a segmented summary under a prompt budget: small segments, and many of them, so that a compaction writes little and the cached prefix stays long.
///
/// Under a prompt cache, what a compaction costs is what it writes: the new
/// segment and every message kept behind it. What a turn saves is the share
/// of its prompt read from the cache. Both call for the same sizes:
///
/// - **Segments of a twentieth of the budget** (400 tokens of 8,000). A
///   compaction then writes little beyond the newest turn, and a merge, which
///   folds only the newest segments into one, rewrites little of the prefix.
///   Ask the wrapped compactor for segments of this size: an
///   [`LlmCompactor`](crate::LlmCompactor) for at most this many answer
///   tokens, a [`TemplateCompactor`](crate::TemplateCompactor) for about
///   three bytes per token of it.
/// - **A segment per eight segments' worth of evicted text** (3,200 tokens of
///   8,000). A compaction that evicts more, such as the first one of a long
///   agent run, writes several segments, one per part (at most eight), so
///   that a large eviction is not squeezed into one segment's size. Each part
///   is one more call to the wrapped compactor.
/// - **A summary of up to four fifths of the budget** in sixteen segments.
///   The old segments are a prefix that no compaction changes, so most of
///   each prompt is read from the cache; the window keeps at least a fifth.
///
/// On the coding-agent sample at 8,000 tokens, replayed at each user
/// message, these sizes cost 0.23 times the uncached price, against 0.30 with
/// segments of about 1,300 tokens merged at two thirds of the budget (see
/// `docs/benchmarks.md`). They trade verbatim history for cache reads: a
/// rolling summary of a quarter of the budget keeps more turns word for word.
///
/// ```
/// use std::sync::Arc;
/// use tidemark_compaction::{SegmentBudget, Segmented, TemplateCompactor};
/// use tidemark_memory::HeuristicCounter;
///
/// let sizes = SegmentBudget::for_budget(8_000);
/// assert_eq!((sizes.segment_tokens, sizes.summary_tokens, sizes.max_segments), (400, 6_400, 16));
/// assert_eq!(sizes.chunk_tokens, 3_200);
/// let template = TemplateCompactor::new().with_max_bytes(Some(3 * sizes.segment_tokens as usize));
/// let compactor = Segmented::new(template).within(Arc::new(HeuristicCounter::default()), sizes);
/// assert_eq!(compactor.max_tokens(), Some(6_400));
/// assert_eq!(compactor.limits().max_segments, 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SegmentBudget {
    /// The tokens one compaction's segment should take: what to ask the wrapped compactor for.
    pub segment_tokens: u32,
    /// The most tokens all segments together take before a compaction merges some of them.
    pub summary_tokens: u32,
    /// The most segments a summary holds.
    pub max_segments: usize,
    /// How many evicted tokens one segment stands for at most: a compaction that evicts more writes a segment per part of about this size (at most half of `max_segments` parts).
    pub chunk_tokens: u32,
}

impl SegmentBudget {
    /// The share of the budget one segment takes, as a divisor: a twentieth.
    pub const SEGMENT_DIVISOR: u32 = 20;
    /// The share of the budget the whole summary may take, in percent.
    pub const SUMMARY_PERCENT: u32 = 80;
    /// How many segments a summary holds at most.
    pub const MAX_SEGMENTS: usize = 16;
    /// How many evicted tokens a segment stands for at most, in segments: eight, a summary at least an eighth of what it replaces.
    pub const CHUNK_SEGMENTS: u32 = 8;

    /// The sizes for a prompt budget of `budget` tokens (each at least one token).
    pub fn for_budget(budget: u32) -> Self {
        let summary = u64::from(budget) * u64::from(Self::SUMMARY_PERCENT) / 100;
        let segment_tokens = (budget / Self::SEGMENT_DIVISOR).max(1);
        Self {
            segment_tokens,
            summary_tokens: u32::try_from(summary).unwrap_or(u32::MAX).max(1),
            max_segments: Self::MAX_SEGMENTS,
            chunk_tokens: segment_tokens.saturating_mul(Self::CHUNK_SEGMENTS),
        }
    }
}

/// A [`Compactor`] that adds each compaction's summary as a new segment behind the earlier ones instead of rewriting one rolling summary.
///
/// A rolling summary changes at every compaction, and it sits at the front of
/// the prompt (after the system prompt), so every compaction makes the
/// provider write the whole prompt to its cache again. Here a compaction
/// summarizes only the newly evicted messages (no carry-over) and appends the
/// result as a new segment; the earlier segments' text is stored and never
/// rendered again, so the prompt up to the new segment is byte for byte what
/// the provider has cached. The summary renders as one system message with
/// one text part per segment: a provider that caches by content block, such
/// as Anthropic's, sees the old segments as blocks of their own.
///
/// With [`within`](Segmented::within), a large eviction is split into parts
/// of about [`SegmentBudget::chunk_tokens`] each, cut between tool units, and
/// each part becomes a segment of its own, one call to the wrapped compactor
/// each; a part that fails fails the compaction.
///
/// Segments cannot pile up for ever: when one more would pass the
/// [`SegmentLimits`] (a count and a byte size), the compaction instead joins
/// the segments' artifacts ([`Join`]) into one carry-over and lets the wrapped
/// compactor fold the evicted messages into it, under its own cap, leaving a
/// single segment. That compaction rewrites the summary, as a rolling summary
/// does every time.
///
/// ```
/// use tidemark_compaction::{SegmentLimits, Segmented, TemplateCompactor};
/// use tidemark_core::{Compactor, ConversationId, Message};
///
/// let compactor = Segmented::new(TemplateCompactor::new()).with_limits(SegmentLimits::new(2, 4096));
/// let id = ConversationId::new("demo")?;
/// let compact = |evicted: &[Message], carry| futures::executor::block_on(compactor.compact(&id, evicted, carry, None));
/// let first = compact(&[Message::user("Deploy on Friday.")], None)?;
/// let second = compact(&[Message::user("Use the blue cluster.")], Some(&first))?;
/// // The first segment is untouched: the prompt's front stays cached.
/// assert_eq!(second.segments.len(), 2);
/// assert_eq!(second.segments[0], first.segments[0]);
/// let rendered = compactor.render(&second);
/// assert_eq!(rendered.parts.len(), 2);
/// // A third would pass the limit of two segments: they are merged into one.
/// let third = compact(&[Message::user("Page Ana if it fails.")], Some(&second))?;
/// assert_eq!(third.segments.len(), 1);
/// assert!(third.segments[0].text.contains("Deploy on Friday.") && third.segments[0].text.contains("Page Ana"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Segmented<C> {
    inner: C,
    limits: SegmentLimits,
    tokens: Option<TokenLimit>,
    /// Evicted tokens per segment, counted by the token limit's counter; `None` writes one segment per compaction.
    chunk_tokens: Option<u64>,
}

/// A limit on the summary's tokens, as the memory's own counter counts them.
#[derive(Clone)]
struct TokenLimit {
    counter: Arc<dyn TokenCounter>,
    max_tokens: u64,
}

impl<C: fmt::Debug> fmt::Debug for Segmented<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Segmented")
            .field("inner", &self.inner)
            .field("limits", &self.limits)
            .field("max_tokens", &self.tokens.as_ref().map(|limit| limit.max_tokens))
            .field("chunk_tokens", &self.chunk_tokens)
            .finish()
    }
}

/// A summary's size in both measures the limits are given in.
#[derive(Clone, Copy, Debug, Default)]
struct Size {
    bytes: usize,
    tokens: u64,
}

impl Size {
    fn plus(self, other: Size) -> Size {
        Size {
            bytes: self.bytes.saturating_add(other.bytes),
            tokens: self.tokens.saturating_add(other.tokens),
        }
    }

    fn max(self, other: Size) -> Size {
        Size { bytes: self.bytes.max(other.bytes), tokens: self.tokens.max(other.tokens) }
    }
}

impl<C> Segmented<C> {
    /// `inner`'s summaries as segments, with the default [`SegmentLimits`].
    pub fn new(inner: C) -> Self {
        Self { inner, limits: SegmentLimits::default(), tokens: None, chunk_tokens: None }
    }

    /// The same compactor merging at `limits`.
    #[must_use]
    pub fn with_limits(mut self, limits: SegmentLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The same compactor also merging before the summary's text would pass `max_tokens`, as `counter` counts it.
    ///
    /// A byte limit stands for tokens only roughly: 16 KiB is about 4,000
    /// tokens of English and twice as many of Chinese. Give the counter of
    /// the memory's policy and a share of its budget, and the summary leaves
    /// the window the rest whatever the language. The limit holds as long as
    /// the wrapped compactor's own summaries stay within half of it: a merge
    /// keeps room for two segments of the largest size seen so far (the
    /// merged one and the next), since a segment's size is known only once
    /// it is written.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tidemark_compaction::{Segmented, TemplateCompactor};
    /// use tidemark_core::{Compactor, ConversationId, Message, TokenCounter};
    /// use tidemark_memory::HeuristicCounter;
    ///
    /// let counter = Arc::new(HeuristicCounter::default());
    /// // Template summaries of at most 160 bytes: about 40 tokens, within half of the limit.
    /// let template = TemplateCompactor::new().with_max_bytes(Some(160));
    /// let compactor = Segmented::new(template).with_token_limit(counter.clone(), 120);
    /// let id = ConversationId::new("demo")?;
    /// let mut summary = None;
    /// for turn in 0..30 {
    ///     let evicted = [Message::user(format!("Step {turn}: the build of module {turn} is green again."))];
    ///     summary = Some(futures::executor::block_on(compactor.compact(&id, &evicted, summary.as_ref(), None))?);
    /// }
    /// let text = compactor.render(summary.as_ref().unwrap()).text().into_owned();
    /// assert!(counter.count_text(&text) <= 120);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_token_limit(mut self, counter: Arc<dyn TokenCounter>, max_tokens: u32) -> Self {
        self.tokens = Some(TokenLimit { counter, max_tokens: u64::from(max_tokens) });
        self
    }

    /// The same compactor merging at `sizes`: at most `sizes.max_segments` segments and `sizes.summary_tokens` tokens of text as `counter` counts them, with no byte limit, and writing a segment per `sizes.chunk_tokens` of evicted text.
    ///
    /// The wrapped compactor's own cap decides each segment's size; give it
    /// `sizes.segment_tokens` (see [`SegmentBudget`]).
    #[must_use]
    pub fn within(mut self, counter: Arc<dyn TokenCounter>, sizes: SegmentBudget) -> Self {
        self.chunk_tokens = Some(u64::from(sizes.chunk_tokens.max(1)));
        self.with_limits(SegmentLimits::new(sizes.max_segments, usize::MAX))
            .with_token_limit(counter, sizes.summary_tokens)
    }

    /// The evicted tokens one segment stands for at most, as set by [`within`](Self::within).
    pub fn chunk_tokens(&self) -> Option<u32> {
        self.chunk_tokens.map(|tokens| u32::try_from(tokens).unwrap_or(u32::MAX))
    }

    /// Where `evicted` splits into parts of one segment each: the end of each part, the last one `evicted.len()`.
    ///
    /// Without chunking, or with what is under one and a half chunks, there
    /// is one part. Otherwise the parts are about equal in tokens, as many as
    /// the chunks the eviction rounds to but at most half of the segment
    /// limit, and every part ends at a tool unit's end, so no call is parted
    /// from its result.
    fn part_ends(&self, evicted: &[Message]) -> Vec<usize> {
        let whole = vec![evicted.len()];
        let (Some(chunk), Some(limit)) = (self.chunk_tokens, self.tokens.as_ref()) else { return whole };
        let counts: Vec<u64> =
            evicted.iter().map(|message| u64::from(limit.counter.count(message))).collect();
        let total: u64 = counts.iter().sum();
        let most = u64::try_from((self.limits.max_segments / 2).max(1)).unwrap_or(u64::MAX);
        let parts = (total.saturating_add(chunk / 2) / chunk.max(1)).clamp(1, most);
        if parts <= 1 {
            return whole;
        }
        let mut ends = Vec::new();
        let mut seen = 0u64;
        for unit in units(evicted) {
            seen += counts[unit.range()].iter().sum::<u64>();
            // The k-th part ends at the first unit end at or past k/parts of the tokens.
            let due = (ends.len() as u64 + 1).saturating_mul(total) / parts;
            if seen >= due && (ends.len() as u64) + 1 < parts && unit.end() < evicted.len() {
                ends.push(unit.end());
            }
        }
        ends.push(evicted.len());
        ends
    }

    /// The limits at which segments merge.
    pub fn limits(&self) -> SegmentLimits {
        self.limits
    }

    /// The token limit given with [`with_token_limit`](Self::with_token_limit), if any.
    pub fn max_tokens(&self) -> Option<u32> {
        self.tokens.as_ref().map(|limit| u32::try_from(limit.max_tokens).unwrap_or(u32::MAX))
    }

    /// The wrapped compactor.
    pub fn inner(&self) -> &C {
        &self.inner
    }

    /// `artifact` with every segment that has no stored text (a rolling summary adopted from before) rendered by the wrapped compactor.
    fn filled<A: Clone>(&self, artifact: &Segments<A>) -> Segments<A>
    where
        C: Compactor<Artifact = A>,
    {
        let segments = artifact
            .segments
            .iter()
            .map(|segment| Segment { artifact: segment.artifact.clone(), text: self.text_of(segment) })
            .collect();
        Segments { segments, merges: artifact.merges }
    }

    /// A segment's stored text, or the wrapped compactor's rendering where none is stored yet.
    fn text_of<A>(&self, segment: &Segment<A>) -> String
    where
        C: Compactor<Artifact = A>,
    {
        if segment.text.is_empty() {
            self.inner.render(&segment.artifact).text().into_owned()
        } else {
            segment.text.clone()
        }
    }

    /// A new segment: the wrapped compactor's summary of `evicted` (folded into `carry_over`, if any) and its text.
    async fn segment<A>(
        &self,
        conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&A>,
        hint: Option<&str>,
    ) -> Result<Segment<A>, CompactionError>
    where
        C: Compactor<Artifact = A>,
    {
        let artifact = self.inner.compact(conversation, evicted, carry_over, hint).await?;
        let text = self.inner.render(&artifact).text().into_owned();
        Ok(Segment { artifact, text })
    }

    /// A segment's size: its bytes, and its tokens when a token limit is set.
    fn size_of(&self, text: &str) -> Size {
        let tokens = self.tokens.as_ref().map_or(0, |limit| u64::from(limit.counter.count_text(text)));
        Size { bytes: text.len(), tokens }
    }

    /// Whether a summary of `size` is within the byte and token limits.
    fn fits(&self, size: Size) -> bool {
        size.bytes <= self.limits.max_bytes
            && self.tokens.as_ref().is_none_or(|limit| size.tokens <= limit.max_tokens)
    }

    /// Whether adding one more segment to a summary of segments of `sizes` would pass the limits.
    ///
    /// The new segment is counted at the size of the largest one so far.
    fn must_merge(&self, sizes: &[Size]) -> bool {
        let total = sizes.iter().fold(Size::default(), |sum, size| sum.plus(*size));
        sizes.len() >= self.limits.max_segments || !self.fits(total.plus(largest(sizes)))
    }

    /// How many of the oldest segments (of `sizes`) a merge leaves as they are: the most that still leave room, after the merged segment, for one new segment within the limits.
    ///
    /// Segment sizes are estimated by the largest so far, as the merged
    /// segment's size is known only once the compactor has written it.
    fn kept_by_merge(&self, sizes: &[Size]) -> usize {
        let largest = largest(sizes);
        let mut prefix = Size::default();
        let mut kept = 0;
        for (index, size) in sizes.iter().enumerate() {
            prefix = prefix.plus(*size);
            let fits = index + 3 <= self.limits.max_segments && self.fits(prefix.plus(largest).plus(largest));
            // At least one segment is always merged, or the merge would free nothing.
            if !fits || index + 1 >= sizes.len() {
                break;
            }
            kept = index + 1;
        }
        kept
    }
}

impl<C> Compactor for Segmented<C>
where
    C: Compactor,
    C::Artifact: Join,
{
    type Artifact = Segments<C::Artifact>;

    fn name(&self) -> &str {
        self.inner.name()
    }

    async fn compact(
        &self,
        conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&Self::Artifact>,
        hint: Option<&str>,
    ) -> Result<Self::Artifact, CompactionError> {
        let mut start = 0;
        let mut folded: Option<Self::Artifact> = None;
        // One segment per part, each folded in as its own compaction; a part
        // that fails fails the whole, so nothing is half written.
        for end in self.part_ends(evicted) {
            let carry = folded.as_ref().or(carry_over);
            folded = Some(self.compact_part(conversation, &evicted[start..end], carry, hint).await?);
            start = end;
        }
        folded.ok_or(CompactionError::EmptySummary)
    }

    fn render(&self, artifact: &Self::Artifact) -> Message {
        let parts = artifact.segments.iter().map(|segment| Part::text(self.text_of(segment))).collect();
        Message::new(Role::System, parts)
    }
}

impl<C> Segmented<C>
where
    C: Compactor,
    C::Artifact: Join,
{
    /// One segment for `evicted` behind `carry_over`'s, or a merge when one more would pass the limits.
    async fn compact_part(
        &self,
        conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&Segments<C::Artifact>>,
        hint: Option<&str>,
    ) -> Result<Segments<C::Artifact>, CompactionError> {
        let carry = carry_over.map(|carry| self.filled(carry)).filter(|carry| !carry.segments.is_empty());
        let Some(carry) = carry else {
            return Ok(Segments {
                segments: vec![self.segment(conversation, evicted, None, hint).await?],
                merges: 0,
            });
        };
        let sizes: Vec<Size> = carry.segments.iter().map(|segment| self.size_of(&segment.text)).collect();
        if self.must_merge(&sizes) {
            let kept = self.kept_by_merge(&sizes);
            let mut segments = carry.segments;
            let merged = segments.split_off(kept);
            let parts: Vec<&C::Artifact> = merged.iter().map(|segment| &segment.artifact).collect();
            let joined = C::Artifact::join(&parts);
            segments.push(self.segment(conversation, evicted, Some(&joined), hint).await?);
            Ok(Segments { segments, merges: carry.merges.saturating_add(1) })
        } else {
            let mut segments = carry.segments;
            segments.push(self.segment(conversation, evicted, None, hint).await?);
            Ok(Segments { segments, merges: carry.merges })
        }
    }
}

/// The largest of `sizes`, in each measure.
fn largest(sizes: &[Size]) -> Size {
    sizes.iter().fold(Size::default(), |largest, size| largest.max(*size))
}

#[cfg(test)]
mod tests;

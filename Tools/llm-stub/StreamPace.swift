/// When each token of a streamed answer is due: the first after the time to first token, the others one per
/// 1/tokens-per-second after it. Both are drawn once per request, uniformly from the behaviour's mean ± jitter, the
/// jitter at most the mean: so a mean of 0 is exactly 0, and a pace of 0 tokens per second means no pace at all,
/// every token as soon as the one before (what tests and `make run` use, so a streamed scan takes no time).
struct StreamPace: Sendable, Hashable {
    /// From the request's arrival to the first token.
    var timeToFirstToken: Duration
    /// Between two tokens.
    var tokenInterval: Duration

    /// gpt-4o's time to first token on OpenAI: about 0.39 s, the median Artificial Analysis publishes for GPT-4o
    /// (May '24) from its 1,000-token text prompts (artificialanalysis.ai/models/gpt-4o-2024-05-13/providers). A photo
    /// adds time before the first token that no published figure isolates, so a fridge scan starts later than this.
    static let gpt4oTimeToFirstTokenMilliseconds = 390
    /// Jitter is not published; ±150 ms is the stub's choice, so that no two streams start in lockstep.
    static let gpt4oTimeToFirstTokenJitterMilliseconds = 150
    /// gpt-4o's output speed on OpenAI: about 81 tokens per second, the median Artificial Analysis publishes for
    /// GPT-4o (May '24), measured after the first chunk (same page). At this pace a four-recipe answer of 1,200 tokens
    /// takes 15 s, the short end of the 15–35 s real scans take.
    static let gpt4oTokensPerSecond = 81.0
    /// Jitter is not published; ±20 tokens per second is the stub's choice.
    static let gpt4oTokensPerSecondJitter = 20.0

    init(timeToFirstToken: Duration, tokenInterval: Duration) {
        self.timeToFirstToken = timeToFirstToken
        self.tokenInterval = tokenInterval
    }

    /// A pace drawn from `behaviour`'s means and jitters.
    init(drawnFrom behaviour: StubBehaviour) {
        let firstToken = Self.draw(Double(behaviour.timeToFirstTokenMilliseconds), jitter: Double(behaviour.timeToFirstTokenJitterMilliseconds))
        timeToFirstToken = .milliseconds(Int64(firstToken.rounded()))
        guard behaviour.tokensPerSecond > 0 else {
            tokenInterval = .zero
            return
        }
        // Jitter as large as the mean could draw a pace of zero: the slowest pace is one token a second.
        tokenInterval = .seconds(1 / max(1, Self.draw(behaviour.tokensPerSecond, jitter: behaviour.tokensPerSecondJitter)))
    }

    /// How long after the first token the token at `index` (0 for the first) is due.
    func offset(ofToken index: Int) -> Duration {
        tokenInterval * index
    }

    private static func draw(_ mean: Double, jitter: Double) -> Double {
        let jitter = min(jitter, mean)
        return jitter > 0 ? Double.random(in: (mean - jitter)...(mean + jitter)) : mean
    }
}

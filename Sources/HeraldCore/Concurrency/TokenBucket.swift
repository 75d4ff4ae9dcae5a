/// A rate as a token bucket: `rate` tokens a second, at most `burst` saved up. Pure: the
/// caller says what time it is (seconds on a monotonic clock).
public struct TokenBucket: Sendable {
    public let rate: Double
    public let burst: Double
    private var tokens: Double
    private var updated: Double

    public init(rate: Double, burst: Double, now: Double) {
        self.rate = rate
        self.burst = max(burst, 1)
        tokens = self.burst
        updated = now
    }

    /// Takes `count` tokens when there are that many (true); otherwise takes none and says
    /// how many seconds until there would be (at least 1, whole seconds: a Retry-After).
    public mutating func take(_ count: Double, now: Double) -> (allowed: Bool, retryAfter: Int) {
        tokens = min(burst, tokens + max(0, now - updated) * rate)
        updated = now
        if tokens >= count {
            tokens -= count
            return (true, 0)
        }
        let wait = rate > 0 ? (min(count, burst) - tokens) / rate : 60
        return (false, max(1, Int(wait.rounded(.up))))
    }
}

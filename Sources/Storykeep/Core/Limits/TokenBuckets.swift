import Synchronization

/// A rate as a token bucket holds it: `perMinute` tokens a minute, refilled evenly, and at most
/// `perMinute` saved up, so a burst of up to a minute's worth passes at once.
public struct RatePerMinute: Sendable, Equatable {
    public var perMinute: Int

    public init(_ perMinute: Int) {
        self.perMinute = perMinute
    }
}

/// Token buckets by key (`login|<tenant>|<address>`), in this process's memory: N server
/// processes allow N times a rate. A key's bucket starts full; a bucket that has filled up again
/// is forgotten when the table grows, so that a flood of addresses cannot grow it without end.
public final class TokenBuckets: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let buckets = Mutex<[String: Bucket]>([:])
    /// Keys kept before full buckets are swept out.
    private let sweepAbove: Int

    public init(sweepAbove: Int = 50_000) {
        self.sweepAbove = sweepAbove
    }

    /// Takes a token from `key`'s bucket of `rate`: nil when there was one, else the whole
    /// seconds until there will be (at least 1), and nothing is taken.
    public func take(_ key: String, _ rate: RatePerMinute) -> Int? {
        update(key, rate, taking: true)
    }

    /// The whole seconds until `key`'s bucket of `rate` has a token, nil when it has one now;
    /// takes nothing.
    public func wait(_ key: String, _ rate: RatePerMinute) -> Int? {
        update(key, rate, taking: false)
    }

    private func update(_ key: String, _ rate: RatePerMinute, taking: Bool) -> Int? {
        let now = ContinuousClock.now
        return buckets.withLock { buckets in
            var bucket = Self.refilled(buckets[key], rate, now: now)
            defer {
                buckets[key] = bucket
                sweep(&buckets, now: now)
            }
            guard bucket.tokens >= 1 else {
                let perSecond = Double(rate.perMinute) / 60
                return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
            }
            if taking { bucket.tokens -= 1 }
            return nil
        }
    }

    private static func refilled(_ bucket: Bucket?, _ rate: RatePerMinute, now: ContinuousClock.Instant) -> Bucket {
        guard var bucket else { return Bucket(tokens: Double(rate.perMinute), updated: now) }
        let elapsed = bucket.updated.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        bucket.tokens = min(Double(rate.perMinute), bucket.tokens + seconds * Double(rate.perMinute) / 60)
        bucket.updated = now
        return bucket
    }

    /// Forgets the buckets that would be full by now once the table holds more than `sweepAbove`
    /// keys: a minute untouched fills any bucket; two, to be sure.
    private func sweep(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant) {
        guard buckets.count > sweepAbove else { return }
        buckets = buckets.filter { $0.value.updated.duration(to: now) < .seconds(120) }
    }
}

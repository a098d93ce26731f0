import Foundation

/// The seed's own pseudo-random generator: xoshiro256** (Blackman and Vigna), its state filled
/// by SplitMix64 from a seed and a path of stream numbers. Not for secrets: it makes synthetic
/// data reproducible, the same seed giving the same data on every machine and every run.
///
/// Each person's data comes from a stream of its own (seed, tenant, person), so the data does not
/// depend on the order or the parallelism in which people are loaded.
public struct SeedRandom: RandomNumberGenerator, Sendable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// The stream `path` of `seed`, e.g. `SeedRandom(seed: 42, stream: [tenant, person])`.
    public init(seed: UInt64, stream path: [UInt64] = []) {
        var mix = seed ^ 0x5354_4F52_594B_4545  // "STORYKEE"
        for part in path { mix = Self.splitMix(&mix) ^ (part &* 0x9E37_79B9_7F4A_7C15) }
        s0 = Self.splitMix(&mix)
        s1 = Self.splitMix(&mix)
        s2 = Self.splitMix(&mix)
        s3 = Self.splitMix(&mix)
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A whole number in `range`, without modulo bias (Lemire's method, as the standard library's
    /// `Int.random(in:using:)` but specified here so that it never changes under us).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) &+ 1
        if span == 0 { return Int(bitPattern: UInt(next())) }
        var product = next().multipliedFullWidth(by: span)
        if product.low < span {
            let threshold = (0 &- span) % span
            while product.low < threshold { product = next().multipliedFullWidth(by: span) }
        }
        return range.lowerBound + Int(product.high)
    }

    public mutating func int(_ range: Range<Int>) -> Int { int(range.lowerBound...(range.upperBound - 1)) }

    /// A number in [0, 1), from 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// An element of `items` (not empty).
    public mutating func pick<C: RandomAccessCollection>(_ items: C) -> C.Element where C.Index == Int {
        items[items.startIndex + int(0..<items.count)]
    }

    /// The index chosen by `weights` (not all zero).
    public mutating func weighted(_ weights: [Double]) -> Int {
        var x = unit() * weights.reduce(0, +)
        for (index, weight) in weights.enumerated() {
            x -= weight
            if x < 0 { return index }
        }
        return weights.count - 1
    }

    /// `count` distinct numbers of `0..<upper`, in random order (a partial Fisher–Yates shuffle).
    public mutating func sample(_ count: Int, of upper: Int) -> [Int] {
        precondition(count <= upper)
        if count * 4 < upper {
            var chosen = Set<Int>(), order: [Int] = []
            while order.count < count {
                let x = int(0..<upper)
                if chosen.insert(x).inserted { order.append(x) }
            }
            return order
        }
        var all = Array(0..<upper)
        for i in 0..<count { all.swapAt(i, int(i..<upper)) }
        return Array(all.prefix(count))
    }

    /// A version 4 (random) UUID made of this generator's bits.
    public mutating func uuid() -> UUID {
        let (a, b) = (next(), next())
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: a >> (56 - 8 * i))
            bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (56 - 8 * i))
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

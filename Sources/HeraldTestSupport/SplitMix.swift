/// A small deterministic random number generator (SplitMix64) for property tests, fault
/// passes and benchmarks: one seed, one sequence, so a failing case can name its seed and be
/// run again. Not for anything that must be unpredictable.
public struct SplitMix: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range` (modulo bias is no matter here).
    public mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }

    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    public mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...(choices.count - 1))] }
}

import PropertyBased

/// Strings drawn from a small alphabet, so that interesting collisions are likely.
func strings(from alphabet: String, length: ClosedRange<Int>) -> Generator<String, AnySequence<Any>> {
    let characters = Array(alphabet)
    return Gen.int(in: 0...(characters.count - 1)).array(of: length).map { indices in
        String(indices.map { characters[$0] })
    }
    .eraseToAny()
}

/// Dotted-digit versions without leading zeros: 0, 2.4, 2.10.0, 10.0.1.7 …
let versions = Gen.int(in: 0...120).array(of: 1...5).map { parts in parts.map(String.init).joined(separator: ".") }

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

/// Versions as devices run them: parts of digits (with leading zeros, and now and then a run
/// of 18 to 24 digits, past where Foundation's 64-bit counter wraps) and of letters, joined by
/// dots, dashes, spaces and other marks.
let deviceVersions: Generator<String, AnySequence<Any>> = {
    let part = zip(
        Gen.int(in: 0...9), strings(from: "0123456789", length: 1...3), strings(from: "0123456789", length: 18...24),
        strings(from: "abBrRcZ", length: 1...3), Gen.int(in: 0...7)
    ).map { choice in
        let body = choice.0 == 0 ? choice.2 : choice.0 <= 2 ? choice.3 : choice.1
        return body + [".", ".", ".", "-", " ", "_", "+", ""][choice.4]
    }
    return part.array(of: 0...5).map { $0.joined() }.eraseToAny()
}()

import CLibCrypto

/// SHA-256, for the digests that name published files in the run history and the checksums of
/// migrations: OpenSSL's, which uses the CPU's SHA instructions where it has them (a publish
/// hashes every file it makes). A pure function of its bytes, so the core may have it.
public enum SHA256 {
    /// The digest as 64 lowercase hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        // The digest on the stack and its digits written straight into the String: a publish
        // names every file it makes by one of these.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(SHA256_DIGEST_LENGTH)) { digest in
            bytes.withUnsafeBufferPointer { input in
                herald_sha256(input.baseAddress, input.count, digest.baseAddress)
            }
            return String(unsafeUninitializedCapacity: digest.count * 2) { out in
                for (index, byte) in digest.enumerated() {
                    out[index * 2] = hexDigit(byte >> 4)
                    out[index * 2 + 1] = hexDigit(byte & 0xF)
                }
                return digest.count * 2
            }
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

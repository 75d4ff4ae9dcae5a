import CLibCrypto

/// SHA-256, for the digests that name published files in the run history and the checksums of
/// migrations: OpenSSL's, which uses the CPU's SHA instructions where it has them (a publish
/// hashes every file it makes). A pure function of its bytes, so the core may have it.
public enum SHA256 {
    /// The digest as 64 lowercase hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = CLibCrypto.SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 64)
        for (index, byte) in digest.enumerated() {
            out[index * 2] = digits[Int(byte >> 4)]
            out[index * 2 + 1] = digits[Int(byte & 0xF)]
        }
        return String(decoding: out, as: UTF8.self)
    }
}

import Foundation
import HeraldTestSupport
import Testing

/// Huge and hostile input is refused with a short message: what a message quotes is a bounded
/// excerpt with its invisible characters escaped, and nothing reads without end.
@Suite struct InputBoundsTests {
    func withFile<T>(_ bytes: some Sequence<UInt8>, _ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bounds-\(UUID().uuidString).json")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }

    @Test func aHugeOneLineFileWithOneBadCharacterGetsAShortMessage() throws {
        let herald = InProcessHerald(database: nil)
        let line = #"{"version": 1, "tenants": [{"slug": "acme", "name": ""# + String(repeating: "A", count: 8_000_000) + "\u{1}\"}]}"
        try withFile(line.utf8) { path in
            let result = try herald.run(["validate", "-f", path])
            #expect(result.status == 65)
            #expect(result.stderr.utf8.count < 400, "\(result.stderr.prefix(400))")
            #expect(result.stderr.contains("line 1, column 8000054: U+0001 cannot appear"), "\(result.stderr.prefix(400))")
            #expect(result.stderr.contains(#"near "…AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA‹U+0001›"}]}""#), "\(result.stderr.prefix(400))")
        }
    }

    @Test func anAliasBombIsRefusedAtOnce() throws {
        let herald = InProcessHerald(database: nil)
        func aliases(_ name: String) -> String { Array(repeating: "*\(name)", count: 999).joined(separator: ", ") }
        let text = """
            version: 1
            x-page: &page {image: "https://cdn.example.com/1.jpg", title: hello}
            x-campaign: &campaign {key: c, kind: story, name: C, content: {en: {pushText: hi, pages: [\(aliases("page"))]}}}
            x-app: &app {slug: a, name: A, platform: ios, bundleId: com.a.b, defaultLocale: en, campaigns: [\(aliases("campaign"))]}
            tenants: [{slug: t, name: T, apps: [\(aliases("app"))]}]

            """
        try withFile(text.utf8) { path in
            let result = try herald.run(["validate", "-f", path])
            #expect(result.status == 65)
            #expect(result.stderr.contains("expands to more than 1000000 values through its aliases"), "\(result)")
        }
    }

    @Test func endlessAndHostileFileArgumentsAreRefusedInWords() throws {
        let herald = InProcessHerald(database: nil)
        let zero = try herald.run(["validate", "-f", "/dev/zero"])
        #expect(zero.status == 65 && zero.stderr.contains("/dev/zero is larger than 128 MB"), "\(zero)")
        let folder = try herald.run(["validate", "-f", "/"])
        #expect(folder.status == 66 && folder.stderr.contains("cannot read /: it is a folder"), "\(folder)")
        let escape = try herald.run(["validate", "-f", "no\u{1B}[2Jsuch\nfile"])
        #expect(escape.status == 66)
        #expect(escape.stderr == "herald: cannot read no‹U+001B›[2Jsuch‹U+000A›file: no such file\n", "\(escape)")
    }

    @Test func aHugeArgumentIsQuotedAsAnExcerpt() throws {
        let herald = InProcessHerald(database: nil, environment: ["HERALD_TENANT": "acme"])
        let huge = String(repeating: "k", count: 100_000) + "\u{1B}[31m"
        let kind = try herald.run(["campaign", "create", "x", "--app", "a", "--kind", huge, "--name", "X"])
        #expect(kind.status == 65)
        #expect(kind.stderr.utf8.count < 300, "\(kind.stderr.prefix(300))")
        #expect(kind.stderr.contains("…\" (100005 bytes)"), "\(kind.stderr.prefix(300))")
        let priority = try herald.run(["campaign", "update", "x", "--app", "a", "--priority", huge])
        #expect(priority.status == 64)
        #expect(priority.stderr.split(separator: "\n").allSatisfy { $0.count <= 1001 }, "\(priority.stderr.prefix(300))")
        #expect(!priority.stderr.contains("\u{1B}"))
    }
}

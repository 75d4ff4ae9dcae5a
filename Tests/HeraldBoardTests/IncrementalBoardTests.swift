import Foundation
@testable import HeraldBoard
import HeraldCore
import HeraldPublish
import Testing

/// The board made again from what the previous one recorded: only pages whose inputs changed
/// are rendered, the index lists what changed, and it is split per app with a filter by state.
@Suite struct IncrementalBoardTests {
    static let renderer = "test-renderer"

    func text(_ files: [SiteFile], _ path: String) -> String {
        files.first { $0.path.description == path }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
    }

    /// Renders `input` against `previous`, keeping the bytes `before` holds for reusable pages.
    func board(_ input: BoardInput, after previous: BoardPlan?, files before: [SiteFile] = []) -> (BoardPlan, [SiteFile]) {
        let plan = Board.plan(input, previous: previous?.memory, renderer: Self.renderer)
        let bytes = Dictionary(before.map { ($0.path.description, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        return (plan, plan.files(kept: bytes.filter { plan.reusable.contains($0.key) }))
    }

    @Test func anUnchangedBoardRendersNoPageAndOneEditRendersOnlyItsApp() throws {
        let input = BoardFixture.input()
        let (first, files) = board(input, after: nil)
        #expect(first.reusable.isEmpty)
        #expect(text(files, "board/index.html").contains("This is the first board in this folder"))
        let memory = try #require(BoardMemory.parse(text(files, BoardMemory.path).utf8.map { $0 }))
        #expect(memory == first.memory)

        // Nothing changed: every campaign's and app's page is kept, and the same bytes come out.
        let (second, again) = board(input, after: first, files: files)
        let pages = files.map(\.path.description).filter { $0.hasSuffix(".html") && $0 != Board.indexPath && $0 != Board.historyPath }
        #expect(Set(second.reusable) == Set(pages))
        #expect(text(again, "board/index.html").contains("Nothing changed since the previous board (2026-05-28 10:00 UTC)."))
        #expect(again.filter { $0.path.description != Board.indexPath } == files.filter { $0.path.description != Board.indexPath })

        // One alert's German title: that app's pages are rendered again, the other tenant's are kept.
        var edited = input
        edited.tenants[0].apps[0].campaigns = edited.tenants[0].apps[0].campaigns.map { campaign in
            guard campaign.key.rawValue == "welcome", case .alert(var alert)? = campaign.content[BoardFixture.locale("de")] else { return campaign }
            var changed = campaign
            alert.title = "Herzlich willkommen"
            changed.content[BoardFixture.locale("de")] = .alert(alert)
            return changed
        }
        let (third, made) = board(edited, after: second, files: again)
        #expect(Set(third.reusable) == ["board/mallory/evil-app.html", "board/mallory/evil-app/xss.html", "board/mallory/evil-app/xss-banner.html"])
        #expect(third.changes.changed == ["demo/weather/welcome"] && third.changes.added.isEmpty && third.changes.removed.isEmpty)
        #expect(text(made, "board/demo/weather/welcome.html").contains("Herzlich willkommen"))
        let index = text(made, "board/index.html")
        #expect(index.contains(#"<li class="changed">changed <a href="demo/weather/welcome.html">Welcome</a> <code>demo/weather/welcome</code></li>"#))

        // A page kept by digest is the page rendering would make: the digest covers what it shows.
        let rendered = Board.render(edited)
        for file in made where file.path.description.hasSuffix(".html") && file.path.description != Board.indexPath {
            #expect(rendered.first { $0.path == file.path } == file, "\(file.path) kept stale")
        }

        // Another renderer (a newer Herald) keeps nothing.
        let other = Board.plan(edited, previous: third.memory, renderer: "another")
        #expect(other.reusable.isEmpty)
    }

    /// A campaign removed and one added are listed; a moved moment re-renders what shows it.
    @Test func addedAndRemovedCampaignsAreListed() throws {
        let input = BoardFixture.input()
        let (first, files) = board(input, after: nil)
        var changed = input
        changed.tenants[0].apps[0].campaigns.removeAll { $0.key.rawValue == "winter" }
        var copy = try #require(input.tenants[0].apps[0].campaigns.first { $0.key.rawValue == "summer" })
        copy.key = BoardFixture.slug("autumn")
        changed.tenants[0].apps[0].campaigns.append(copy)
        let (second, _) = board(changed, after: first, files: files)
        #expect(second.changes.added == ["demo/weather/autumn"] && second.changes.removed == ["demo/weather/winter"])
        var later = input
        later.at = input.at.addingTimeInterval(86_400)
        let (third, _) = board(later, after: first, files: files)
        #expect(third.reusable.isEmpty, "every page says the moment it shows")
    }

    @Test func theIndexLinksEachAppWhosePageFiltersByState() throws {
        let files = Board.render(BoardFixture.input())
        let index = text(files, "board/index.html")
        #expect(!index.contains("data-campaign="), "campaign rows are on the apps' pages")
        #expect(index.contains(#"<a href="demo/weather.html">Weather</a>"#))
        #expect(index.contains(#"<span class="badge live">live 3</span>"#))
        let app = text(files, "board/demo/weather.html")
        for state in ["live", "scheduled", "paused", "draft", "ended", "archived"] {
            #expect(app.contains(#"<input type="radio" class="filter" name="state" id="f-\#(state)">"#), "\(state)")
        }
        #expect(app.contains(#"<input type="radio" class="filter" name="state" id="f-all" checked>"#))
        #expect(app.range(of: "id=\"f-all\"")?.lowerBound ?? app.endIndex < app.range(of: "<table class=\"campaigns\"")?.lowerBound ?? app.startIndex)
        #expect(!app.contains("<script") && !app.contains("onclick"))
        let css = text(files, Board.stylesheetPath)
        #expect(css.contains(#"#f-live:checked ~ .scroll tr[data-state]:not([data-state="live"]) { display: none; }"#))
        // A campaign's page leads back to its app's page.
        #expect(text(files, "board/demo/weather/welcome.html").contains(#"<li><a href="../weather.html">Weather</a></li>"#))
    }

    @Test func theMemoryReadsBackAndRefusesWhatIsNotOne() {
        let memory = BoardMemory(renderer: "r", made: "2026-05-28 10:00 UTC", pages: ["board/a/b.html": "d1"], campaigns: ["a/b/c": "d2"])
        #expect(BoardMemory.parse(memory.serialized()) == memory)
        #expect(BoardMemory.parse(Array("not a memory\n".utf8)) == nil)
        #expect(BoardMemory.parse(Array("herald board inputs 1\nrenderer r\nmade x\nfile a b\n".utf8)) == nil)
    }
}

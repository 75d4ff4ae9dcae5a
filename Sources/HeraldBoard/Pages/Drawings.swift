import Foundation
import HeraldCore

/// Campaign content drawn as the device clients draw it. Nothing here loads anything: a view
/// given by URL and a story image are labelled placeholders with their address, and an inline
/// view is a sandboxed frame (no script; the page's policy blocks anything it would fetch).
enum Drawings {
    // MARK: Notable banner

    /// The entry view in a phone at its height and origin, and the other views behind disclosures.
    static func banner(_ banner: BannerContent, app: AppSpec, campaign: CampaignSpec, locale: LocaleTag) -> HTML {
        guard let entry = banner.views.first(where: { $0.id == banner.entry }) else {
            return "<p class=\"warnings\">Entry \(banner.entry) names no view: the client never shows this banner.</p>"
        }
        var html: HTML = """
            <figure>\(phone(app: app, content: view(entry, campaign: campaign, locale: locale, entry: true)))\
            <figcaption>Entry view <code>\(entry.id)</code>: \(viewPlacement(entry)); \(viewSource(entry))</figcaption></figure>
            """
        let others = banner.views.filter { $0.id != banner.entry }
        for other in others {
            html += """
                <details><summary>Other view <code>\(other.id)</code> (\(viewPlacement(other)))</summary>\
                <figure>\(phone(app: app, content: view(other, campaign: campaign, locale: locale, entry: false)))\
                <figcaption>Reached from the banner's own links and JavaScript; \(viewSource(other))</figcaption></figure></details>
                """
        }
        return html
    }

    static func viewPlacement(_ view: BannerView) -> String {
        let height = view.height.map { "\(Charts.number($0)) pt high" } ?? "full screen height"
        let origin = view.origin == .top ? "from the top" : "from the bottom"
        return view.height == nil ? height : "\(height), \(origin)"
    }

    static func viewSource(_ view: BannerView) -> HTML {
        switch view.source {
        case .file(let url): "a web page at <a href=\"\(url.rawValue)\" rel=\"noopener noreferrer\" target=\"_blank\">\(url.rawValue)</a> (not loaded here)."
        case .html: "inline HTML, drawn without its JavaScript."
        }
    }

    private static func view(_ view: BannerView, campaign: CampaignSpec, locale: LocaleTag, entry: Bool) -> HTML {
        let placement: String
        var style = ""
        if let height = view.height {
            placement = view.origin == .top ? "top" : "bottom"
            style = " style=\"height:\(Charts.number(min(height, 844)))px\""
        } else {
            placement = "full"
        }
        let inner: HTML
        switch view.source {
        case .file(let url):
            inner = "<div class=\"placeholder\"><strong>Web page (not loaded in the board)</strong><code>\(url.rawValue)</code></div>"
        case .html(let markup):
            // srcdoc holds the campaign's HTML as an attribute value: escaped, then parsed
            // by the browser as a separate document in a sandbox without scripts, under a
            // policy of its own that lets it load nothing (served over HTTP, the board's own
            // policy would let it fetch and frame the review host's pages).
            let framed = Layout.framePolicy + markup
            inner = "<iframe sandbox=\"\" referrerpolicy=\"no-referrer\" title=\"View \(view.id) of \(campaign.name) (\(locale))\" srcdoc=\"\(framed)\"></iframe>"
        }
        return "<div class=\"view \(placement)\"\(HTML(trusted: style))>\(inner)</div>"
    }

    /// A phone with the app's own screen behind `content`.
    private static func phone(app: AppSpec, content: HTML, dimmed: Bool = false) -> HTML {
        """
        <div class="phone"><div class="phone-clip"><div class="screen">\
        <div class="statusbar"><span>9:41</span><span class="island"></span><span>100 %</span></div>\
        <div class="app-bar">\(app.name)</div><div class="app-rows"><span></span><span></span><span></span><span></span><span></span><span></span><span></span><span></span></div>\
        \(content)</div></div></div>
        """
    }

    // MARK: iNotify alert

    /// iNotify's button labels: its defaults (the app can change them), in the order it adds them.
    static func alertButtons(_ alert: AlertContent) -> [(label: String, cancel: Bool)] {
        guard alert.actionURL != nil else { return [("OK", true)] }
        return [(alert.actionButton ?? "More Info", false), ("Remind Me Later", false), ("Ignore", true)]
    }

    static func alert(_ alert: AlertContent, app: AppSpec) -> HTML {
        let buttons: [HTML] = alertButtons(alert).map { button in
            "<span class=\"alert-button\(button.cancel ? HTML(trusted: " cancel") : .empty)\">\(button.label)</span>"
        }
        let box: HTML = """
            <div class="dim"><div class="alert" role="group" aria-label="Alert"><div class="alert-text">\
            <p class="alert-title">\(alert.title)</p><p class="alert-message">\(alert.message)</p></div>\(buttons)</div></div>
            """
        return """
            <figure>\(phone(app: app, content: box))<figcaption>As iOS draws iNotify's alert: title, message, then the buttons in \
            iNotify's order\(alert.actionURL == nil ? HTML(trusted: " (no action URL: only OK)") : HTML(trusted: " (action, remind, ignore; the labels but the action's are iNotify's defaults)")).</figcaption></figure>
            """
    }

    // MARK: Pushwoosh story

    static func story(_ story: StoryContent, app: AppSpec) -> HTML {
        let initial = app.name.first.map(String.init) ?? "•"
        let push: HTML = """
            <div class="push"><div class="push-head"><span class="app-icon">\(initial)</span><span>\(app.name)</span>\
            <span class="push-time">now</span></div>\
            \(story.pushTitle.map { HTML("<p class=\"push-title\">\($0)</p>") })<p class="push-text">\(story.pushText)</p></div>
            """
        let lock: HTML = """
            <div class="phone"><div class="phone-clip"><div class="screen lock">\
            <div class="statusbar"><span>9:41</span><span class="island"></span><span>100 %</span></div>\
            <p class="lock-time">9:41</p>\(push)<p class="lock-hint">Touch and hold the notification to play the story</p></div></div></div>
            """
        // Pages as Pushwoosh's player plays them: dropped pages get no bar, durations as it
        // uses them, the button only when it shows, texts only when not empty.
        let outcomes = story.pages.map(\.played)
        let barCount = outcomes.filter { if case .page = $0 { true } else { false } }.count
        var played = 0
        let pages: [HTML] = zip(1..., outcomes).map { number, outcome in
            guard case .page(let page) = outcome else {
                let reason = if case .dropped(let change) = outcome { change.shortNote } else { "" }
                return """
                    <li class="page"><p class="page-notes">Page \(number) is not played: \(reason).</p></li>
                    """
            }
            let index = played
            played += 1
            let bars: [HTML] = (0..<barCount).map { bar in
                HTML(trusted: "<span class=\"\(bar < index ? "done" : bar == index ? "current" : "todo")\"></span>")
            }
            var notes: [String] = ["\(Charts.number(page.seconds)) s\(page.usesDefaultDuration ? " (the player's default)" : "")"]
            if let button = page.button { notes.append("button opens \(button.link)") }
            notes += page.changes.map(\.shortNote)
            return """
                <li class="page"><div class="story" role="group" aria-label="Page \(index + 1) of \(barCount)">\
                <div class="progress">\(bars)</div>\
                <div class="story-image">Full-bleed image (not loaded)<code>\(page.image)</code></div>\
                <div class="story-text">\(page.title.map { HTML("<p class=\"story-title\">\($0)</p>") })\
                \(page.subtitle.map { HTML("<p class=\"story-subtitle\">\($0)</p>") })\
                \(page.button.map { HTML("<span class=\"story-button\">\($0.title)</span>") })</div></div>\
                <p class="page-notes">Page \(number): \(notes.joined(separator: " · "))</p></li>
                """
        }
        return """
            <figure>\(lock)<figcaption>The push as it arrives (title and text); expanded, the Pushwoosh extension plays the pages.</figcaption></figure>
            <p class="pages-cue">\(barCount == 1 ? "One page" : "\(barCount) pages: scroll sideways, one page at a time") \
            (\(story.pages.count) in the file)</p>
            <ol class="pages" tabindex="0" aria-label="Story pages">\(pages)</ol>
            """
    }
}

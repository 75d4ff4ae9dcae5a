/// The page shell every board page shares, and the one stylesheet.
enum Layout {
    /// No request may leave the board's folder: nothing but the folder's own stylesheet,
    /// no script at all, frames only for sandboxed inline views (which inherit this policy).
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'none'"

    /// The policy each inline view's frame carries itself: inline styles and data: images,
    /// nothing fetched, nothing framed.
    static let framePolicy =
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"

    /// A whole page. `root` is the relative path to the board's folder (`""`, `"../../"`).
    static func page(title: String, root: String, breadcrumb: [(String, String?)], main: HTML) -> HTML {
        let crumbs: [HTML] = breadcrumb.enumerated().map { index, item in
            let (label, link) = item
            let isLast = index == breadcrumb.count - 1
            if let link, !isLast { return "<li><a href=\"\(link)\">\(label)</a></li>" }
            return "<li\(isLast ? HTML(trusted: " aria-current=\"page\"") : .empty)>\(label)</li>"
        }
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(HTML(trusted: contentSecurityPolicy))">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <meta name="robots" content="noindex, nofollow">
            <title>\(title) · Herald review board</title>
            <link rel="stylesheet" href="\(root)assets/board.css">
            </head>
            <body>
            <a class="skip" href="#main">Skip to content</a>
            <header class="site">
            <p class="brand"><a href="\(root)index.html">Herald review board</a></p>
            <nav aria-label="Breadcrumb"><ol class="crumbs">\(crumbs)</ol></nav>
            </header>
            <main id="main">
            \(main)
            </main>
            <footer class="site"><p>Made by <code>herald board</code>: static files, nothing loaded from outside this folder. \
            Web pages and images of campaigns are shown as labelled placeholders with their addresses; open them yourself.</p></footer>
            </body>
            </html>

            """
    }

    static let stylesheet = """
        :root {
          --ink: #1b1f24; --muted: #505a66; --line: #d0d7de; --paper: #ffffff; --wash: #f4f6f8;
          --accent: #0b57d0; --live: #116329; --scheduled: #0b57d0; --ended: #505a66; --draft: #6639ba;
          --paused: #9a4a00; --archived: #505a66; --warn-ink: #6b4400; --warn-wash: #fff4d6; --bad: #a40e26;
          --impression: #0b57d0; --delivered: #6639ba; --click: #116329; --dismiss: #b35900;
          font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "DejaVu Sans", sans-serif;
          color: var(--ink); background: var(--wash); line-height: 1.45;
        }
        * { box-sizing: border-box; }
        body { margin: 0; overflow-wrap: break-word; }
        h1, h2, h3, h4, dd, li, p, figcaption { overflow-wrap: anywhere; }
        a { color: var(--accent); }
        a:focus-visible, summary:focus-visible, [tabindex]:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; border-radius: 3px; }
        code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: .9em; overflow-wrap: anywhere; }
        .skip { position: absolute; left: -999px; top: 0; background: var(--paper); padding: .5rem 1rem; z-index: 10; }
        .skip:focus { left: .5rem; }
        header.site { background: #14213d; color: #fff; padding: .75rem clamp(1rem, 3vw, 2rem); display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; align-items: baseline; }
        header.site a { color: #fff; }
        .brand { margin: 0; font-weight: 700; letter-spacing: .01em; }
        .brand a { text-decoration: none; }
        .crumbs { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem; font-size: .95rem; }
        .crumbs li + li::before { content: "›"; margin-right: .35rem; color: #c9d3e6; }
        .crumbs [aria-current] { color: #e6ecf7; }
        main { max-width: 1320px; margin: 0 auto; padding: 1rem clamp(.75rem, 3vw, 2rem) 3rem; }
        footer.site { max-width: 1320px; margin: 0 auto; padding: 1rem clamp(.75rem, 3vw, 2rem) 2rem; color: var(--muted); font-size: .9rem; }
        h1 { font-size: clamp(1.5rem, 4vw, 2.1rem); margin: .75rem 0 .25rem; line-height: 1.2; }
        h2 { font-size: 1.45rem; margin: 2rem 0 .75rem; }
        h3 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
        h4 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
        .lede { color: var(--muted); margin-top: 0; max-width: 70ch; }
        .muted { color: var(--muted); }
        .panel { background: var(--paper); border: 1px solid var(--line); border-radius: 12px; padding: 1rem clamp(.75rem, 2vw, 1.25rem); margin: 1rem 0; }
        .panel > h2:first-child, .panel > h3:first-child { margin-top: .25rem; }
        .badge { display: inline-block; padding: .1rem .55rem; border-radius: 999px; font-size: .85rem; font-weight: 600; border: 1px solid currentColor; white-space: nowrap; }
        .badge.live { color: var(--live); background: #dafbe1; }
        .badge.scheduled { color: var(--scheduled); background: #ddeaff; }
        .badge.ended { color: var(--ended); background: #eef1f4; }
        .badge.draft { color: var(--draft); background: #f1e9ff; }
        .badge.paused { color: var(--paused); background: #fff1e0; }
        .badge.archived { color: var(--archived); background: #eef1f4; }
        .badge.approved { color: var(--live); background: #dafbe1; }
        .badge.awaiting { color: var(--paused); background: #fff1e0; }
        /* The filter by state: radio buttons drawn as chips; the rules that hide rows follow. */
        input.filter { position: absolute; opacity: 0; width: 1px; height: 1px; margin: 0; }
        input.filter + label { display: inline-block; margin: 0 .4rem .6rem 0; padding: .2rem .7rem; border-radius: 999px; border: 1px solid var(--line);
          background: var(--paper); cursor: pointer; font-size: .9rem; font-weight: 600; }
        input.filter:checked + label { box-shadow: 0 0 0 3px var(--accent); }
        input.filter:focus-visible + label { outline: 3px solid var(--accent); outline-offset: 2px; }
        .filter-note { margin: .25rem 0 .4rem; }
        .changes-since .changes { columns: 1; }
        pre.diff { overflow-x: auto; max-width: 100%; font-size: .85rem; background: #f6f8fa; padding: .5rem; white-space: pre; }
        .kind { font-size: .8rem; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); font-weight: 700; }
        .count-warn { color: var(--warn-ink); background: var(--warn-wash); border-radius: 6px; padding: 0 .4rem; font-weight: 600; white-space: nowrap; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; background: var(--paper); }
        caption { text-align: left; font-weight: 600; padding: .25rem 0 .5rem; }
        th, td { text-align: left; padding: .5rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        thead th { font-size: .85rem; color: var(--muted); border-bottom: 2px solid var(--line); white-space: nowrap; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; margin: .5rem 0; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; }
        .warnings { list-style: none; padding: 0; margin: .5rem 0; display: grid; gap: .4rem; }
        .warnings li { background: var(--warn-wash); color: var(--warn-ink); border-left: 4px solid #d4a72c; padding: .4rem .6rem; border-radius: 6px; font-size: .92rem; overflow-wrap: anywhere; }
        .warnings li.error { background: #ffebe9; color: var(--bad); border-left-color: var(--bad); }
        .warnings .rule { font-weight: 700; }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 330px), 1fr)); gap: 1rem; align-items: start; }
        .card { background: var(--paper); border: 1px solid var(--line); border-radius: 14px; padding: 1rem; }
        .card > h3 { margin: 0 0 .25rem; display: flex; gap: .5rem; align-items: baseline; flex-wrap: wrap; }
        .fallback { font-size: .9rem; margin: .25rem 0 .75rem; }
        .fallback.own { color: var(--live); }
        .fallback.other { color: var(--warn-ink); background: var(--warn-wash); padding: .25rem .5rem; border-radius: 6px; }
        .fallback.none { color: var(--muted); }
        figure { margin: 0; }
        figcaption { font-size: .85rem; color: var(--muted); margin-top: .4rem; overflow-wrap: anywhere; }
        .copy { font-size: .92rem; }
        .copy dt { font-weight: 600; }
        .copy dd { margin: 0 0 .35rem; overflow-wrap: anywhere; }
        .conditions { font-size: .92rem; padding-left: 1.1rem; margin: .25rem 0; }
        .card .conditions { font-size: .85rem; color: var(--muted); }
        details { margin: .5rem 0; }
        summary { cursor: pointer; font-weight: 600; }

        /* Phones: an iPhone screen is 390 × 844 points, drawn at 70 %. */
        .phone { width: 289px; height: 607px; padding: 8px; border-radius: 44px; background: #1d1d1f; box-shadow: 0 1px 2px rgba(0,0,0,.2); margin: 0 auto; }
        .phone-clip { width: 273px; height: 591px; overflow: hidden; border-radius: 36px; position: relative; background: #fff; }
        .screen { width: 390px; height: 844px; transform: scale(.7); transform-origin: 0 0; position: absolute; left: 0; top: 0; overflow: hidden;
          font-family: -apple-system, "SF Pro Text", "Helvetica Neue", Arial, "DejaVu Sans", sans-serif; background: #f2f2f7; color: #000; }
        .statusbar { height: 47px; display: flex; align-items: center; justify-content: space-between; padding: 0 32px; font-weight: 600; font-size: 16px; }
        .island { width: 120px; height: 34px; border-radius: 20px; background: #000; }
        .app-bar { padding: 52px 20px 12px; font-size: 32px; font-weight: 700; }
        .app-rows { padding: 0 20px; display: grid; gap: 14px; }
        .app-rows span { display: block; height: 64px; border-radius: 14px; background: #fff; }
        .view { position: absolute; left: 0; width: 390px; background: #fff; box-shadow: 0 4px 18px rgba(0,0,0,.25); overflow: hidden; }
        .view.top { top: 0; }
        .view.bottom { bottom: 0; }
        .view.full { top: 0; bottom: 0; }
        .view iframe { border: 0; width: 100%; height: 100%; display: block; background: #fff; }
        .placeholder { height: 100%; display: flex; flex-direction: column; justify-content: center; gap: 6px; padding: 10px 18px;
          background: repeating-linear-gradient(135deg, #eef3fb 0 12px, #e2eaf7 12px 24px); color: #1b1f24; font-size: 15px; }
        .placeholder strong { font-size: 15px; }
        .placeholder code { font-size: 14px; }
        .view-notes { font-size: .85rem; color: var(--muted); margin: .5rem 0 0; }

        /* iOS alert (UIAlertView, as iNotify shows it). */
        .dim { position: absolute; inset: 0; background: rgba(0,0,0,.38); display: flex; align-items: center; justify-content: center; }
        .alert { width: 270px; border-radius: 14px; background: rgba(242,242,247,.97); text-align: center; overflow: hidden; }
        .alert-text { padding: 19px 16px 18px; }
        .alert-title { font-size: 17px; font-weight: 600; margin: 0 0 4px; overflow-wrap: anywhere; }
        .alert-message { font-size: 13px; margin: 0; overflow-wrap: anywhere; max-height: 440px; overflow-y: auto; }
        /* iOS keeps the title and the buttons and scrolls a long message between them. */
        .alert-button { display: block; border-top: 1px solid rgba(60,60,67,.29); padding: 11px 8px; font-size: 17px; color: #0062cc; overflow-wrap: anywhere; }
        .alert-button.cancel { font-weight: 600; }

        /* Pushwoosh story: the push as it arrives, then its pages. */
        .lock { background: linear-gradient(160deg, #3a4f7a, #1c2740); }
        .lock .statusbar { color: #fff; }
        .lock-time { color: #fff; text-align: center; font-size: 80px; font-weight: 300; margin: 10px 0 24px; }
        .push { margin: 0 12px; border-radius: 22px; background: rgba(245,245,250,.92); padding: 12px 14px; font-size: 15px; }
        .push-head { display: flex; align-items: center; gap: 8px; font-size: 13px; color: #3c3c43; text-transform: uppercase; letter-spacing: .02em; }
        .app-icon { width: 20px; height: 20px; border-radius: 5px; background: #0b57d0; color: #fff; display: inline-flex; align-items: center; justify-content: center; font-size: 12px; font-weight: 700; }
        .push-time { margin-left: auto; text-transform: none; }
        .push-title { font-weight: 600; margin: 6px 0 0; overflow-wrap: anywhere; }
        .push-text { margin: 2px 0 0; overflow-wrap: anywhere; }
        /* Pages one at a time in a phone-shaped frame (about 9:19.5): scroll sideways, each page snaps into place. */
        .pages-cue { font-size: .85rem; color: var(--muted); margin: .75rem 0 .25rem; text-align: center; }
        .pages { list-style: none; margin: 0 auto; padding: 0 0 .5rem; display: flex; overflow-x: auto; scroll-snap-type: x mandatory;
          width: 200px; max-width: 100%; scrollbar-width: thin; }
        .page { flex: 0 0 100%; scroll-snap-align: start; }
        .story { position: relative; width: 100%; aspect-ratio: 9 / 19.5; border-radius: 22px; overflow: hidden; color: #fff;
          background: repeating-linear-gradient(135deg, #30466e 0 14px, #2a3e63 14px 28px); border: 6px solid #1d1d1f; }
        .progress { position: absolute; top: 8px; left: 8px; right: 8px; display: flex; gap: 3px; }
        .progress span { flex: 1; height: 3px; border-radius: 2px; background: rgba(255,255,255,.4); }
        .progress span.done { background: #fff; }
        .progress span.current { background: linear-gradient(90deg, #fff 45%, rgba(255,255,255,.4) 45%); }
        .story-image { position: absolute; top: 22px; left: 10px; right: 10px; font-size: 11px; color: #e6ecf7; }
        .story-image code { display: block; font-size: 10px; margin-top: 2px; }
        .story-text { position: absolute; left: 0; right: 0; bottom: 0; padding: 28px 10px 10px; background: linear-gradient(transparent, rgba(0,0,0,.7)); }
        .story-title { font-weight: 700; font-size: 16px; margin: 0; overflow-wrap: anywhere; }
        .story-subtitle { font-size: 12px; margin: 2px 0 0; overflow-wrap: anywhere; }
        .story-button { display: block; margin-top: 8px; text-align: center; background: #fff; color: #000; border-radius: 999px; padding: 5px 8px; font-size: 13px; font-weight: 600; overflow-wrap: anywhere; }
        /* A local notification (seed 004): badge on the icon, a sound mark, "slide to <action>". */
        .app-icon.with-badge { position: relative; }
        .icon-badge { position: absolute; top: -7px; right: -9px; min-width: 14px; height: 14px; padding: 0 3px; border-radius: 7px; background: #ff3b30;
          color: #fff; font-size: 9px; line-height: 14px; text-align: center; }
        .sound-mark { font-size: 11px; text-transform: none; color: #3c3c43; }
        .sound-mark.silent { color: #8e8e93; }
        .slide { color: rgba(255,255,255,.85); text-align: center; font-size: 18px; margin: 18px 0 0; }
        .fires { margin: .5rem 0 .2rem; font-size: .9rem; }
        .fire-times { margin: 0 0 .5rem; padding-left: 1.1rem; font-size: .85rem; }
        .lock-hint { position: absolute; bottom: 40px; left: 0; right: 0; text-align: center; color: rgba(255,255,255,.8); font-size: 15px; }
        .page-notes { font-size: .8rem; color: var(--muted); margin: .3rem 0 0; overflow-wrap: anywhere; }

        /* Who sees what. */
        table.matrix td.yes { color: var(--live); }
        table.matrix td.no { color: var(--bad); }
        table.matrix td .verdict { font-weight: 600; }
        table.matrix td .why { display: block; font-size: .85rem; color: var(--muted); }
        table.matrix th[scope=row] { font-weight: 400; min-width: 14rem; }
        table.matrix .device { display: block; font-size: .85rem; color: var(--muted); }
        table.matrix td::before { content: none; }
        @media (max-width: 640px) {
          /* A phone: each device's locales stacked under it, each cell naming its locale, nothing to scroll sideways. */
          table.matrix thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
          table.matrix, table.matrix tbody, table.matrix tr, table.matrix th[scope=row], table.matrix td { display: block; width: auto; min-width: 0; }
          table.matrix tr { border-bottom: 2px solid var(--line); padding: .4rem 0; }
          table.matrix th[scope=row], table.matrix td { border-bottom: 0; }
          table.matrix td { padding: .15rem .45rem .15rem 1rem; }
          table.matrix td::before { content: attr(data-locale) ": "; font-weight: 700; color: var(--ink); }
        }

        /* Charts. */
        .legend { display: flex; flex-wrap: wrap; gap: .75rem 1.25rem; list-style: none; padding: 0; margin: .25rem 0; font-size: .9rem; }
        .legend li { display: flex; align-items: center; gap: .4rem; }
        .swatch { width: 22px; height: 0; border-top: 3px solid; display: inline-block; }
        .swatch.impressions { border-color: var(--impression); }
        .swatch.delivered { border-color: var(--delivered); border-top-width: 2px; }
        .swatch.partial { height: 12px; border: 0; background: rgba(154,74,0,.14); }
        .swatch.clicks { border-color: var(--click); border-top-style: dashed; }
        .swatch.dismissals { border-color: var(--dismiss); border-top-style: dotted; }
        .chart-box { overflow-x: auto; }
        svg.chart { width: 100%; min-width: 460px; max-width: 760px; height: auto; display: block; }
        svg.timeline { width: 100%; min-width: 560px; max-width: 960px; height: auto; display: block; }
        /* A phone: narrow enough that the now-line (62 % across) is on the screen before any scrolling. */
        @media (max-width: 640px) { svg.timeline { min-width: 480px; } }
        .timeline-legend .key { width: 22px; height: 12px; border-radius: 3px; display: inline-block; border: 2px solid; }
        .key.state-live { background: var(--live); border-color: var(--live); }
        .key.state-scheduled { background: var(--scheduled); border-color: var(--scheduled); }
        .key.state-ended { background: #8c959f; border-color: #8c959f; }
        .key.state-paused { border-color: var(--paused); border-style: dashed; }
        .key.state-draft { border-color: var(--draft); border-style: dashed; }
        svg .grid { stroke: #e3e8ee; stroke-width: 1; }
        svg .tick { fill: #505a66; font-size: 12px; }
        svg .row-label { fill: #1b1f24; font-size: 13px; }
        svg polyline { fill: none; stroke-width: 2.5; stroke-linejoin: round; }
        svg .impressions { stroke: var(--impression); fill: var(--impression); }
        svg polyline.impressions { fill: none; }
        svg .clicks { stroke: var(--click); fill: var(--click); }
        svg polyline.clicks { fill: none; stroke-dasharray: 7 4; }
        svg .dismissals { stroke: var(--dismiss); fill: var(--dismiss); }
        svg polyline.dismissals { fill: none; stroke-dasharray: 2 4; }
        svg .bar { fill: #0b57d0; }
        svg .delivered { stroke: var(--delivered); fill: var(--delivered); }
        svg polyline.delivered { fill: none; stroke-width: 2; }
        svg .hover { fill: transparent; }
        svg .hover:hover { fill: rgba(11,87,208,.08); }
        svg .axis-title { fill: #505a66; font-size: 12px; font-weight: 600; }
        svg .partial { fill: rgba(154,74,0,.14); }
        svg .partial-label { fill: var(--paused); font-size: 11px; font-weight: 700; }
        svg .track { fill: #e3e8ee; }
        svg .now { stroke: var(--bad); stroke-width: 2; }
        svg .now-label { fill: var(--bad); font-size: 12px; font-weight: 700; }
        svg .open-end { fill: #fff; font-size: 12px; }
        svg .span { stroke-width: 2; }
        svg .state-live { fill: var(--live); stroke: var(--live); }
        svg .state-scheduled { fill: var(--scheduled); stroke: var(--scheduled); }
        svg .state-ended { fill: #8c959f; stroke: #8c959f; }
        svg .state-draft { fill: #fff; stroke: var(--draft); stroke-dasharray: 5 3; }
        svg .state-paused { fill: #fff; stroke: var(--paused); stroke-dasharray: 5 3; }
        svg .state-draft + .open-end, svg .state-paused + .open-end { fill: var(--ink); }
        .inline-bar { width: 200px; max-width: 40vw; height: 14px; vertical-align: middle; }
        .totals { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; margin: .25rem 0 .75rem; padding: 0; list-style: none; }
        .totals strong { font-size: 1.25rem; display: block; }
        .runs { display: grid; gap: .75rem; }
        .run h3 { margin: 0 0 .25rem; font-size: 1.05rem; }
        .changes { columns: 2 22rem; font-size: .9rem; padding-left: 1.1rem; }
        .changes .removed { color: var(--bad); }
        .changes .added { color: var(--live); }
        @media (max-width: 640px) {
          dl.facts { grid-template-columns: 1fr; gap: 0; }
          dl.facts dd { margin-bottom: .4rem; }
          th, td { padding: .4rem .45rem; }
          .wide { display: none; }
        }

        """ + AppPage.filterRules
}

import HeraldCore
import HeraldPublish

/// Publish's warnings and the copy lint, sorted onto the campaigns they concern.
struct BoardWarnings {
    /// Publish's own warnings (and errors) by `tenant/app`, then campaign key; those about an
    /// app as a whole (or about no campaign the board knows) under the key "".
    private var publish: [String: [String: [String]]] = [:]
    /// Copy findings by `tenant/app/campaign`.
    private var copy: [String: [CopyFinding]] = [:]

    /// `site`: what the publisher would make of the tenants now; copy findings for every
    /// campaign (not only live ones), so drafts are reviewed before they go out.
    init(tenants: [TenantSpec], site: CompiledSite) {
        var copyLines: Set<String> = []
        for tenant in tenants {
            for app in tenant.apps {
                for finding in CopyLint.findings(tenant: tenant.slug, app: app) {
                    copy["\(tenant.slug)/\(app.slug)/\(finding.campaign)", default: []].append(finding)
                    copyLines.insert(finding.description)
                }
            }
        }
        for line in site.errors.map({ "refused by publish: " + $0 }) + site.warnings where !copyLines.contains(line) {
            // The copy lint also runs inside publish; here it is shown per card instead.
            guard let (appKey, campaigns) = Self.owner(of: line, tenants: tenants) else {
                publish["", default: [:]]["", default: []].append(line)
                continue
            }
            for campaign in campaigns.isEmpty ? [""] : campaigns {
                publish[appKey, default: [:]][campaign, default: []].append(line)
            }
        }
    }

    func publishWarnings(tenant: Slug, app: Slug, campaign: Slug) -> [String] {
        publish["\(tenant)/\(app)"]?[campaign.rawValue] ?? []
    }

    /// Warnings about an app as a whole, or about nothing the board lists.
    func appWarnings(tenant: Slug, app: Slug) -> [String] {
        publish["\(tenant)/\(app)"]?[""] ?? []
    }

    var unplaced: [String] { publish[""]?[""] ?? [] }

    func copyFindings(tenant: Slug, app: Slug, campaign: Slug) -> [CopyFinding] {
        copy["\(tenant)/\(app)/\(campaign)"] ?? []
    }

    func count(tenant: Slug, app: Slug, campaign: Slug) -> Int {
        publishWarnings(tenant: tenant, app: app, campaign: campaign).count + copyFindings(tenant: tenant, app: app, campaign: campaign).count
    }

    /// The app a warning is about (its lines start `tenant/app`) and the campaigns it names:
    /// `tenant/app/key …` names one; otherwise each campaign key of the app that appears in
    /// the line as a whole word.
    static func owner(of line: String, tenants: [TenantSpec]) -> (String, [String])? {
        let text = line.hasPrefix("refused by publish: ") ? String(line.dropFirst("refused by publish: ".count)) : line
        for tenant in tenants {
            for app in tenant.apps {
                let prefix = "\(tenant.slug)/\(app.slug)"
                guard text.hasPrefix(prefix) else { continue }
                let rest = text.dropFirst(prefix.count)
                guard let next = rest.first, next == "/" || next == " " || next == ":" else { continue }
                let keys = app.campaigns.map(\.key.rawValue)
                if next == "/" {
                    let key = rest.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "-" }
                    if keys.contains(String(key)) { return (prefix, [String(key)]) }
                }
                return (prefix, keys.filter { containsWord($0, in: rest) })
            }
        }
        return nil
    }

    /// `word` in `text`, not as part of a longer slug. Compared as UTF-8 bytes: a slug is
    /// ASCII, and any byte of a character outside ASCII is not one of a slug's (Foundation's
    /// `range(of:)` here was a cold board's costliest search).
    static func containsWord(_ word: String, in text: Substring) -> Bool {
        func isSlugByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
        let needle = Array(word.utf8)
        let haystack = Array(text.utf8)
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            let end = start + needle.count
            guard haystack[start..<end].elementsEqual(needle) else { continue }
            if (start == 0 || !isSlugByte(haystack[start - 1])) && (end == haystack.count || !isSlugByte(haystack[end])) { return true }
        }
        return false
    }
}

import Testing

@testable import StorykeepCore

/// A tenant's slug and hosts are checked by byte loops (a Regex literal compiles again on every
/// call, and every read of the tenants checks many): they accept exactly what the patterns the
/// documentation gives accept.
@Suite struct TenantNameSyntaxTests {
    /// Every string of up to six characters over an alphabet with each kind of character the
    /// patterns tell apart (and some they refuse), and a few at the length limits.
    static var samples: [String] {
        let alphabet: [Character] = ["a", "z", "0", "9", "-", ".", "A", "_", "é"]
        var strings = [""]
        var layer = [""]
        for _ in 0..<6 {
            layer = layer.flatMap { prefix in alphabet.map { prefix + String($0) } }
            strings += layer
        }
        let long = [String(repeating: "a", count: 63), String(repeating: "a", count: 64), String(repeating: "a", count: 300),
                    String(repeating: "ab.", count: 84) + "a", String(repeating: "ab.", count: 85) + "a"]
        return strings + long
    }

    @Test func theSlugAndHostChecksAcceptWhatTheirPatternsAccept() {
        let slugPattern = /[a-z0-9]+(-[a-z0-9]+)*/
        let hostPattern = /[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*/
        var accepted = (slugs: 0, hosts: 0)
        for text in Self.samples {
            let slug = TextLimit.tenantSlug.admits(text) && text.wholeMatch(of: slugPattern) != nil
            let host = text.utf8.count <= 253 && text.wholeMatch(of: hostPattern) != nil
            #expect(TenantFile.isValidSlug(text) == slug, "slug \(text.debugDescription)")
            #expect(TenantFile.isValidHost(text) == host, "host \(text.debugDescription)")
            if slug { accepted.slugs += 1 }
            if host { accepted.hosts += 1 }
        }
        // The samples reach both answers of both checks.
        #expect(accepted.slugs > 1000 && accepted.hosts > accepted.slugs)
    }
}

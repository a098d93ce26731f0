import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 14, the export's guarantees: a feed that never passes a change whose transaction may still
// commit, a client's context that reads only what is exportable (at the database, as the app
// role), signed links that cannot be changed, moved or kept, and documents whose text is inert.

@Suite("Export: the feed's guarantees")
struct ExportSecurityHTTPTests {
    @Test func changesCommittedOutOfOrderAreNeitherSkippedNorRepeated() async throws {
        try await withAccounts(poolSize: 6, tweak: ExportHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let token = try await h.clientToken(try await h.cmsClient(admin: ada))
            let start = try #require(try await h.pull(token, after: nil)["cursor"]?.stringValue)
            let (early, late) = (UUID(), UUID())
            let context = AccountContext.anonymous(tenantID: h.tenant.id)
            let insert = "insert into export_changes (tenant_id, entry_id) values (current_tenant_id(), $1)"
            try await h.app.withConnection { a in
                try await h.app.withConnection { b in
                    // A starts first (its transaction id is the older), B logs its change first
                    // (the lower sequence) and commits first; A logs after it and commits last.
                    try await a.executeScript("begin")
                    try await context.enter(on: a)
                    _ = try await a.query("select pg_current_xact_id()")
                    try await b.executeScript("begin")
                    try await context.enter(on: b)
                    try await b.execute(insert, late)
                    try await a.execute(insert, early)
                    try await b.executeScript("commit")

                    // B's change is committed but A's may still commit before it in the feed's
                    // order: the page stops short of both, and its cursor stays where it was.
                    for _ in 0..<3 {
                        let page = try await h.pull(token, after: start)
                        #expect(page["items"] == .list([]))
                        #expect(page["cursor"] == .string(start))
                    }
                    try await a.executeScript("commit")
                }
            }
            let pulled = try await h.pull(token, after: start) { $0.items.count >= 2 }
            #expect(pulled.ops == ["TOMBSTONE \(early.uuidString.lowercased())", "TOMBSTONE \(late.uuidString.lowercased())"])
            let sequences = pulled.items.compactMap { $0["sequence"]?.stringValue.flatMap { Int64($0) } }
            #expect(sequences.count == 2 && sequences[0] > sequences[1], "A's change has the higher sequence, yet comes first")
            #expect(try await h.pull(token, after: pulled.cursor)["items"] == .list([]), "nothing twice")
        }
    }

    @Test func aClientsContextReadsOnlyItsAgencysExportableRowsAtTheDatabase() async throws {
        try await withAccounts(tenants: 2, tweak: ExportHTTP.tenant) { h in
            let agency = try await SharingAgency(h)
            let (sam, wendy, carl) = (agency.a, agency.w, agency.c)
            let cms = try await h.cmsClient(admin: agency.admin)
            let tag = try await h.tag("school", as: sam)
            _ = try await h.tag("private-tag", as: sam)
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam.token)
            _ = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam.token)
            let shared = try await h.write("For Wendy", tags: [tag], media: [photo["id"]!], as: sam)
            _ = try await h.write("Private", as: sam)
            let forCarl = try await h.write("For Carl", as: sam)
            let archived = try await h.write("Shared, then deleted", as: sam)
            try await h.share(shared, with: [wendy], as: sam)
            try await h.share(forCarl, with: [carl], as: sam)
            try await h.share(archived, with: [wendy], as: sam)
            _ = try await h.data(ExportFeedHTTPTests.delete, "deleteEntry", ["id": archived], as: sam)

            let client = AccountContext.client(tenantID: h.tenant.id, clientID: try #require(UUID(uuidString: cms.id)))
            try await h.app.transaction(settings: client.settings) { (tx: PostgresTransaction) async throws in
                let ids: (String) async throws -> Set<String> = { sql in
                    Set(try await tx.query(sql).map { try $0.decode(UUID.self, at: 0).uuidString.lowercased() })
                }
                #expect(try await ids("select id from entries") == [shared.stringValue!])
                #expect(try await ids("select media_id from entry_media") == [photo["id"]!.stringValue!])
                #expect(try await ids("select id from media") == [photo["id"]!.stringValue!])
                #expect(try await ids("select id from tags") == [tag])
                #expect(try await ids("select id from people where role = 'AGENCY_ADMIN'") == [])
                for table in ["sessions", "credentials", "activation_codes", "notifications", "cms_tokens", "profiles"] {
                    #expect(try await tx.query("select count(*) from \(table)")[0].decode(Int.self, at: 0) == 0, "\(table)")
                }
                #expect(try await tx.query("select id from cms_clients")[0].decode(UUID.self, at: 0).uuidString.lowercased() == cms.id)
            }
            // Under another agency's context, none of it; a person never reads the change log.
            let other = AccountContext.client(tenantID: h.tenants[1].id, clientID: UUID())
            try await h.app.transaction(settings: other.settings) { (tx: PostgresTransaction) async throws in
                for table in ["entries", "media", "shares", "people", "export_changes", "cms_clients"] {
                    #expect(try await tx.query("select count(*) from \(table)")[0].decode(Int.self, at: 0) == 0, "\(table)")
                }
            }
            let asWendy = AccountContext.person(tenantID: h.tenant.id, personID: wendy.id, role: .socialWorker)
            try await h.app.transaction(settings: asWendy.settings) { (tx: PostgresTransaction) async throws in
                #expect(try await tx.query("select count(*) from export_changes")[0].decode(Int.self, at: 0) == 0)
            }
        }
    }

    @Test func mediaLinksWorkWithoutATokenUntilTheyExpireAndOnlyAsSigned() async throws {
        try await withAccounts(tenants: 2, tweak: ExportHTTP.tenant) { h in
            let agency = try await SharingAgency(h)
            let (sam, wendy) = (agency.a, agency.w)
            let token = try await h.clientToken(try await h.cmsClient(admin: agency.admin))
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam.token)
            let other = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam.token)
            let entry = try await h.write("With a photo", media: [photo["id"]!, other["id"]!], as: sam)
            try await h.share(entry, with: [wendy], as: sam)
            let pulled = try await h.pull(token, after: nil) { !$0.items.isEmpty }
            let files = try #require(pulled.items.first?["entry"]?["media"]?.listValue)
            let url = try #require(files.first?["url"]?.stringValue)
            #expect(url.hasPrefix("/t/\(h.tenant.slug)/export/media/\(photo["id"]!.stringValue!)?"))

            let fetched = try await h.get(url, token: nil)
            #expect(fetched.status == .ok)
            #expect(Array(fetched.body.readableBytesView) == SampleMedia.png)

            // Changed in any part, or taken to another agency: refused.
            let tampered = String(url.dropLast()) + (url.hasSuffix("0") ? "1" : "0")
            #expect(try await h.get(tampered, token: nil).status == .forbidden)
            let otherFile = url.replacingOccurrences(of: photo["id"]!.stringValue!, with: other["id"]!.stringValue!)
            #expect(try await h.get(otherFile, token: nil).status == .forbidden)
            let later = url.replacingOccurrences(of: "expires=", with: "expires=9")
            #expect(try await h.get(later, token: nil).status == .forbidden)
            let elsewhere = url.replacingOccurrences(of: "/t/\(h.tenant.slug)/", with: "/t/\(h.tenants[1].slug)/")
            #expect(try await h.get(elsewhere, token: nil).status == .forbidden)
            #expect(try await h.get("/t/\(h.tenant.slug)/export/media/\(photo["id"]!.stringValue!)", token: nil).status == .forbidden)

            // No longer exportable: not found; expired: refused.
            _ = try await h.data(SharingHTTP.unshareEntry, "unshareEntry", ["e": entry, "p": .null], as: sam)
            #expect(try await h.get(url, token: nil).status == .notFound)
            h.clock.advance(seconds: 3601)
            #expect(try await h.get(url, token: nil).status == .forbidden)
        }
    }

    /// The agency switches the export off (`tenant apply` of its file without `export`): a client
    /// reads nothing at once, whatever the server's cache of tenant files holds, its signed links
    /// included; back on, it reads what it did.
    @Test func switchingTheExportOffClosesWhatAClientReadsAtOnce() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let agency = try await SharingAgency(h)
            let (sam, wendy) = (agency.a, agency.w)
            let cms = try await h.cmsClient(admin: agency.admin)
            let token = try await h.clientToken(cms)
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam.token)
            let entry = try await h.write("With a photo", media: [photo["id"]!], as: sam)
            try await h.share(entry, with: [wendy], as: sam)
            let pulled = try await h.pull(token, after: nil) { !$0.items.isEmpty }
            let url = try #require(pulled.items.first?["entry"]?["media"]?.listValue?.first?["url"]?.stringValue)
            let client = AccountContext.client(tenantID: h.tenant.id, clientID: try #require(UUID(uuidString: cms.id)))
            func visibleEntries() async throws -> Int {
                try await h.app.transaction(settings: client.settings) { tx in
                    try await tx.query("select count(*) from entries")[0].decode(Int.self, at: 0)
                }
            }
            #expect(try await visibleEntries() == 1)

            var off = h.tenant.file
            off.modules.removeAll { $0 == .export }
            _ = try await TenantStore(pool: h.owner).apply([off])
            #expect(try await visibleEntries() == 0)
            #expect(try await h.get(url, token: nil).status == .notFound)

            _ = try await TenantStore(pool: h.owner).apply([h.tenant.file])
            #expect(try await visibleEntries() == 1)
            #expect(try await h.get(url, token: nil).status == .ok)
        }
    }

    @Test func theDocumentIsSelfContainedAndItsTextInert() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let agency = try await SharingAgency(h)
            let (sam, wendy) = (agency.a, agency.w)
            let token = try await h.clientToken(try await h.cmsClient(admin: agency.admin))
            let hostile = "<script>alert(\"x\")</script> & 'quoted' \"words\" <img src=x onerror=alert(1)>"
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam.token)
            let entry = try await h.write(hostile, media: [photo["id"]!], as: sam)
            try await h.share(entry, with: [wendy], message: "</li><script>bad()</script>", as: sam)
            _ = try await h.pull(token, after: nil) { !$0.items.isEmpty }
            let response = try await h.graphQL(ExportHTTP.document, [:], token: token)
            let document = try #require(response["data"]?["export"]?["changes"]?["items"]?.listValue?.first?["entry"]?["document"])
            #expect(document["contentType"] == .string("text/html; charset=utf-8"))
            let html = try #require(document["html"]?.stringValue)
            #expect(!html.contains("<script"), "no script survives")
            #expect(!html.contains("<img src=x"), "the text's tags are text")
            #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39; &quot;words&quot;"))
            #expect(html.contains("&lt;/li&gt;&lt;script&gt;bad()&lt;/script&gt;"))
            #expect(html.contains("src=\"data:image/png;base64,\(Data(SampleMedia.png).base64EncodedString())\""))
            #expect(html.contains(DocumentEscaping.escape(h.tenant.displayName)))
            #expect(html.contains("Wendy Walker (social worker)"))
            #expect(html.contains("2026-11-20"))
        }
    }
}

/// HTML escaping as a test expects it, written out independently of the module's.
enum DocumentEscaping {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}

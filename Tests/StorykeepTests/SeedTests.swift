import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
import StorykeepCaseload
import StorykeepSharing
@testable import StorykeepCore
@testable import StorykeepJournals
@testable import StorykeepSeed
@testable import StorykeepTags
import StorykeepRewards

/// `Seeder` (what `storykeep seed` runs) against the real PostgreSQL of TenancyDatabase, as the
/// server's role: the rows it writes read back through JournalStore as their authors, keep the
/// journal's invariants, and the same seed gives the same data.
@Suite("Seed: synthetic journals, reproducible, read back through the journal's own stores")
struct SeedTests {
    static func options(seed: UInt64, prefix: String = "st-" + UUID().uuidString.prefix(8).lowercased()) -> SeedOptions {
        var options = SeedOptions()
        options.seed = seed
        options.tenantPrefix = prefix
        options.tenants = 2
        options.youngPeople = 5
        options.entries = 500
        options.heavyPersonEntries = 150
        options.days = 120
        options.batchEntries = 120
        return options
    }

    static let password = "seed-password"

    /// Seeds `options` as storykeep_app (tenants as the owner), with one hash for everyone.
    static func seed(_ options: SeedOptions) async throws -> SeedSummary {
        let hasher = try PasswordHasher(pool: BoundedWorkerPool(threadCount: 1, name: "seed-test"))
        return try await TestPools.run(app: 3, owner: 1) { db in
            try await Seeder.run(try SeedPlan(options), owner: db.owner, app: db.app, passwordHash: try await hasher.hash(password))
        }
    }

    /// Every young person's journal as they see it through JournalStore, TagStore and
    /// MediaStore, in a canonical text; its SHA-256.
    static func journalDigest(_ summary: SeedSummary) async throws -> String {
        var text = ""
        try await TestDatabase.appPool(size: 1).closing { app in
            for tenant in summary.tenants {
                for person in tenant.people {
                    let context = AccountContext.person(tenantID: tenant.id!, personID: person.id, role: person.role)
                    try await app.transaction(settings: context.settings) { tx in
                        text += "person \(person.role.rawValue) \(person.loginName) \(person.displayName) \(person.id)\n"
                        for tag in try await TagStore(tx).tags() { text += "tag \(tag.id) \(tag.name)\n" }
                        let store = JournalStore(tx)
                        var after: EntryPosition?
                        repeat {
                            let page = try await store.entries(first: 100, after: after)
                            let tagsOf = try await TagStore(tx).tags(ofEntries: page.items.map(\.item.id))
                            for (e, _) in page.items {
                                text += "entry \(e.id) \(e.day) \(e.kind.rawValue) \(e.text ?? "-") \(e.mood ?? "-") "
                                    + "\(e.background ?? "-") \(e.suggestion ?? "-") \(e.createdAt.timeIntervalSince1970) "
                                    + "\(e.updatedAt.timeIntervalSince1970) [\((tagsOf[e.id] ?? []).map(\.name).joined(separator: ","))] "
                                    + "[\(e.media.map { "\($0.contentType) \($0.byteSize) \(Data($0.sha256).base64EncodedString())" }.joined(separator: ","))]\n"
                            }
                            after = page.hasNextPage ? page.endPosition : nil
                        } while after != nil
                    }
                }
            }
        }
        return Crypto.sha256(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Test func theSameSeedGivesTheSameDataAndAnotherSeedOther() async throws {
        let first = try await Self.seed(Self.options(seed: 7))
        let again = try await Self.seed(Self.options(seed: 7))
        let other = try await Self.seed(Self.options(seed: 8))
        #expect(first.tenants.map(\.slug) != again.tenants.map(\.slug))
        #expect(first.digest == again.digest)
        #expect(first.digest != other.digest)
        #expect(first.counts == again.counts)
        let (a, b, c) = (try await Self.journalDigest(first), try await Self.journalDigest(again), try await Self.journalDigest(other))
        #expect(a == b)
        #expect(a != c)
    }

    @Test func theCaseloadSeedsEveryYoungPersonASocialWorkerAndACarerWithinTheirCaseloads() async throws {
        var options = Self.options(seed: 5)
        options.entries = 0
        options.heavyPersonEntries = 0
        options.youngPeople = 14
        options.moduleSettings = ["caseload": ["youngPeoplePerSocialWorker": "4"]]
        let summary = try await Self.seed(options)
        #expect(summary.moduleCounts["caseload"] == ["assignments": 28])
        try await TestDatabase.appPool(size: 1).closing { app in
            for tenant in summary.tenants {
                let young = tenant.people.filter { $0.role == .youngPerson }
                for person in young {
                    let context = AccountContext.person(tenantID: tenant.id!, personID: person.id, role: person.role)
                    let team = try await app.transaction(settings: context.settings) { tx in try await Caseload(tx).currentAdults(of: person.id) }
                    #expect(Set(team.map(\.relationship)) == [.socialWorker, .carer])
                }
                for worker in tenant.people where worker.role == .socialWorker {
                    let context = AccountContext.person(tenantID: tenant.id!, personID: worker.id, role: worker.role)
                    let caseload = try await app.transaction(settings: context.settings) { tx in
                        try await Caseload(tx).currentYoungPeople(of: worker.id)
                    }
                    // 7 young people and one social worker per tenant: the caseload of 4 wraps round.
                    #expect(caseload.count == young.count)
                }
            }
        }
        options.moduleSettings = ["caseload": ["youngPeoplePerSocialWorker": "0"]]
        options.tenantPrefix += "x"
        await #expect(throws: ModuleSeedError.self) { try await Self.seed(options) }
    }

    @Test func theSharingSeedSharesEveryKthLiveEntryWithTheSocialWorkerWhoSeesTheOlderOnes() async throws {
        var options = Self.options(seed: 6)
        options.youngPeople = 14
        options.entries = 700
        options.moduleSettings = ["caseload": ["youngPeoplePerSocialWorker": "4"], "sharing": ["sharesPerYoungPerson": "12"]]
        let summary = try await Self.seed(options)
        var shares = 0, unseen = 0
        try await TestDatabase.appPool(size: 1).closing { app in
            for tenant in summary.tenants {
                for person in tenant.people where person.role == .youngPerson {
                    // Their live entries, newest first, and their social worker, as they read them.
                    let young = AccountContext.person(tenantID: tenant.id!, personID: person.id, role: person.role)
                    let (live, worker) = try await app.transaction(settings: young.settings) { tx in
                        var live: [UUID] = [], after: EntryPosition?
                        repeat {
                            let page = try await JournalStore(tx).entries(first: 100, after: after)
                            live += page.items.map(\.item.id)
                            after = page.hasNextPage ? page.endPosition : nil
                        } while after != nil
                        let team = try await Caseload(tx).currentAdults(of: person.id)
                        return (live, try #require(team.first { $0.relationship == .socialWorker }).adult)
                    }
                    let step = max(1, live.count / 12)
                    let expected = Array(live.indices.filter { $0 % step == 0 }.prefix(12).map { live[$0] })
                    // What the social worker reads of them through ShareStore.
                    let sharee = AccountContext.person(tenantID: tenant.id!, personID: worker.id, role: worker.role)
                    let (page, counts) = try await app.transaction(settings: sharee.settings) { tx in
                        let store = ShareStore(tx)
                        return (try await store.sharedWithMe(youngPersonID: person.id, first: 100),
                                try await store.unseenCounts(of: [person.id]))
                    }
                    // (In the order shared: an hour after each was written, which is not always the order of their days.)
                    #expect(page.items.count == expected.count)
                    #expect(Set(page.items.map(\.item.entry.id)) == Set(expected), "\(tenant.slug) \(person.loginName)")
                    #expect(page.items.filter { $0.item.message != nil }.count == (expected.count + 9) / 10)
                    #expect(page.items.allSatisfy { $0.item.sharedAt == $0.item.entry.createdAt.addingTimeInterval(3600) })
                    // The newest three in ten unseen, the others seen.
                    #expect(counts[person.id] ?? 0 == expected.count * 3 / 10)
                    #expect(page.items.filter { $0.item.seenAt == nil }.map(\.item.id) == Array(page.items.prefix(expected.count * 3 / 10).map(\.item.id)))
                    shares += expected.count
                    unseen += expected.count * 3 / 10
                }
            }
        }
        #expect(shares > 12 * 10)
        #expect(summary.moduleCounts["sharing"] == ["shares": shares, "seen": shares - unseen])
        options.moduleSettings = ["sharing": ["sharesPerYoungPerson": "100001"]]
        options.tenantPrefix += "x"
        await #expect(throws: ModuleSeedError.self) { try await Self.seed(options) }
    }

    /// The rewards' seed earns, through the module's own earning, from the last days of each
    /// journal: the same seed, the same stars; each young person's ledger is theirs and sums up.
    @Test func theRewardsSeedEarnsFromTheLastDaysOfEachJournal() async throws {
        var options = Self.options(seed: 9)
        options.moduleSettings = ["rewards": ["days": "30"]]
        let summary = try await Self.seed(options)
        let counts = try #require(summary.moduleCounts["rewards"])
        #expect(counts["stars", default: 0] > 0 && counts["achievements", default: 0] > 0, "\(counts)")
        options.tenantPrefix += "x"
        #expect(try await Self.seed(options).moduleCounts["rewards"] == counts)
        let total = try await TestDatabase.appPool(size: 1).closing { app in
            var total = 0
            for tenant in summary.tenants {
                for person in tenant.people where person.role == .youngPerson {
                    let context = AccountContext.person(tenantID: tenant.id!, personID: person.id, role: person.role)
                    total += try await app.transaction(settings: context.settings) { tx in
                        let balance = try await RewardStore(tx).balance()
                        let others = try await tx.query("select count(*) from star_ledger where person_id <> $1", person.id)[0]
                        #expect(try others.decode(Int.self, at: 0) == 0)
                        return balance
                    }
                }
            }
            return total
        }
        #expect(total == counts["stars"])
        options.moduleSettings = ["rewards": ["days": "forever"]]
        options.tenantPrefix += "y"
        await #expect(throws: ModuleSeedError.self) { try await Self.seed(options) }
    }

    @Test func aModuleSettingIsCheckedBeforeAnythingIsSeeded() throws {
        var options = Self.options(seed: 1)
        options.moduleSettings = ["nosuchmodule": ["x": "1"]]
        #expect(options.problem == "--set nosuchmodule.…: there is no module nosuchmodule")
        #expect(throws: SeedError.self) { try SeedPlan(options) }
        options.moduleSettings = ["journals": ["x": "1"]]
        #expect(options.problem?.hasPrefix("--set journals.x: the journals module's seed takes ") == true)
    }

    @Test func theRowsKeepTheJournalsInvariants() async throws {
        let options = Self.options(seed: 3)
        let summary = try await Self.seed(options)
        #expect(summary.counts.entries == 500)
        #expect(Set(summary.counts.entriesByKind.keys) == Set(EntryKind.allCases))
        #expect(summary.counts.media > 0 && summary.counts.tags > 0 && summary.counts.entryTags > 0)
        let heavy = try #require(summary.heavy)
        #expect(heavy.username == "heavy" && heavy.entryCount == 150)
        let firstDay = PostgresDate(daysSince2000: options.until.daysSince2000 - options.days + 1)

        let app = try TestDatabase.appPool(size: 1)
        let hasher = try PasswordHasher(pool: BoundedWorkerPool(threadCount: 1, name: "seed-test"))
        var seenEntries = 0
        do {
            for tenant in summary.tenants {
                let tenantID = try #require(tenant.id)
                let labels = Set(tenant.file.moodIcons.map(\.label))
                let young = tenant.people.filter { $0.role == .youngPerson }
                #expect(tenant.people.contains { $0.role == .agencyAdmin } && tenant.people.contains { $0.role == .carer })
                for person in tenant.people {
                    let context = AccountContext.person(tenantID: tenantID, personID: person.id, role: person.role)
                    try await app.transaction(settings: context.settings) { tx in
                        // They can log in: their own credentials, the seed's password, their tenant's terms.
                        let row = try await tx.query(
                            """
                            select c.password_hash, p.terms_version_accepted from credentials c
                            join people p on p.tenant_id = c.tenant_id and p.id = c.person_id
                            where c.tenant_id = current_tenant_id() and c.person_id = current_person_id()
                            """)[0]
                        if person == young.first {
                            #expect(try await hasher.verify(Self.password, against: row.decode(String.self, at: 0)).ok)
                        }
                        #expect(try row.decode(String?.self, at: 1) == tenant.file.termsVersion)

                        let all = try await tx.query(
                            """
                            select count(*), count(*) filter (where archived_at is not null),
                                   count(*) filter (where day < $1 or day > $2),
                                   count(*) filter (where tag_names <> coalesce((
                                       select string_agg(t.name, ' ' order by t.name_key) from entry_tags et
                                       join tags t on t.tenant_id = et.tenant_id and t.id = et.tag_id
                                       where et.tenant_id = e.tenant_id and et.entry_id = e.id), '')),
                                   count(*) filter (where created_at > updated_at)
                            from entries e where tenant_id = current_tenant_id() and author_id = current_person_id()
                            """, firstDay, options.until)[0]
                        #expect(try all.decode(Int.self, at: 0) == person.entryCount)
                        #expect(try all.decode(Int.self, at: 2) == 0, "days within the span")
                        #expect(try all.decode(Int.self, at: 3) == 0, "tag_names are the names of the entry's tags")
                        #expect(try all.decode(Int.self, at: 4) == 0)
                        let archived = try all.decode(Int.self, at: 1)
                        guard person.role == .youngPerson else { return }

                        // The journal as the API reads it: every live entry, in order, with tags and media.
                        let store = JournalStore(tx)
                        var live: [Entry] = [], after: EntryPosition?
                        repeat {
                            let page = try await store.entries(first: 100, after: after)
                            live += page.items.map(\.item)
                            after = page.hasNextPage ? page.endPosition : nil
                        } while after != nil
                        #expect(live.count == person.entryCount - archived)
                        seenEntries += live.count + archived
                        let order = live.map { ($0.day, $0.createdAt) }
                        #expect(zip(order, order.dropFirst()).allSatisfy { $0.0 > $1.0 || ($0.0 == $1.0 && $0.1 >= $1.1) })
                        let checkIns = live.filter { $0.kind == .mood }
                        #expect(checkIns.allSatisfy { $0.mood != nil })
                        #expect(Set(checkIns.map(\.day)).count == checkIns.count, "one check-in a day")
                        #expect(live.compactMap(\.mood).allSatisfy(labels.contains), "moods from the tenant's icons")
                        let tags = Set(try await TagStore(tx).tags().map(\.id))
                        #expect(try await TagStore(tx).tags(ofEntries: live.map(\.id)).values.joined().allSatisfy { tags.contains($0.id) })
                        // Files: what MediaSniffer accepts, their bytes as described.
                        for info in live.flatMap(\.media).prefix(12) {
                            let bytes = try #require(try await MediaStore(tx).bytes(id: info.id))
                            #expect(MediaSniffer.sniff(bytes) == info.contentType)
                            #expect(bytes.count == info.byteSize && Crypto.sha256(bytes) == info.sha256)
                        }
                        #expect(live.filter { [.image, .drawing, .audio, .video].contains($0.kind) }.allSatisfy { !$0.media.isEmpty })
                        // Search and calendar have material.
                        if let word = live.compactMap(\.text).first?.split(separator: " ").first.map(String.init) {
                            #expect(try await store.search(word, first: 5).items.isEmpty == false)
                        }
                        if let day = live.first?.day {
                            let month = String(day.description.prefix(7))
                            let calendar = try await store.calendar(month: month)
                            #expect(calendar.reduce(0) { $0 + $1.entryCount } == live.filter { $0.day.description.hasPrefix(month) }.count)
                        }
                    }
                }
                // Nobody else reads a journal: the first young person's entries, as the second.
                if young.count >= 2 {
                    let other = AccountContext.person(tenantID: tenantID, personID: young[1].id, role: .youngPerson)
                    let mine = try await app.transaction(settings: AccountContext.person(tenantID: tenantID, personID: young[0].id, role: .youngPerson).settings) { tx in
                        try await JournalStore(tx).entries(first: 5).items.map(\.item.id)
                    }
                    let seen = try await app.transaction(settings: other.settings) { tx in try await JournalStore(tx).entries(ids: mine) }
                    #expect(!mine.isEmpty && seen.isEmpty)
                }
            }
        } catch {
            await app.close()
            throw error
        }
        await app.close()
        #expect(seenEntries == 500)
    }

    @Test func aTenantIsNeverSeededTwice() async throws {
        let options = Self.options(seed: 1)
        _ = try await Self.seed(options)
        await #expect(throws: SeedError.self) { _ = try await Self.seed(options) }
    }

    @Test func thePlanIsReproducibleAndChecked() throws {
        let a = try SeedPlan(Self.options(seed: 11, prefix: "a"))
        let b = try SeedPlan(Self.options(seed: 11, prefix: "b"))
        #expect(a.tenants.map(\.people) == b.tenants.map(\.people))
        let young: [SeedPerson] = a.tenants.flatMap(\.people).filter { $0.role == .youngPerson }
        let planned: Int = young.reduce(0) { $0 + $1.entryCount }
        #expect(planned == 500)
        var bad = Self.options(seed: 1)
        bad.heavyPersonEntries = 501
        #expect(throws: SeedError.self) { try SeedPlan(bad) }
        bad = Self.options(seed: 1)
        bad.tenantPrefix = "Not A Slug"
        #expect(bad.problem != nil)
        var r1 = SeedRandom(seed: 5, stream: [1, 2]), r2 = SeedRandom(seed: 5, stream: [1, 2]), r3 = SeedRandom(seed: 5, stream: [2, 1])
        let x = (0..<8).map { _ in r1.next() }
        #expect(x == (0..<8).map { _ in r2.next() })
        #expect(x != (0..<8).map { _ in r3.next() })
    }

    @Test func theMediaAreFilesOfTheAcceptedKinds() {
        var r = SeedRandom(seed: 9)
        #expect(MediaSniffer.sniff(SeedMedia.drawing(&r)) == "image/png")
        #expect(MediaSniffer.sniff(SeedMedia.photo(&r)) == "image/png")
        #expect(MediaSniffer.sniff(SeedMedia.recording(&r)) == "audio/wav")
        #expect(MediaSniffer.sniff(SeedMedia.clip(&r)) == "video/quicktime")
        // PNG's checksums: CRC-32 and Adler-32 of known inputs.
        #expect(SeedMedia.crc32(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(SeedMedia.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }
}

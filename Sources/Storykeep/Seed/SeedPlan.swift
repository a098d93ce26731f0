import Foundation
import Postgres
import Storykeep
import StorykeepCore

/// What `storykeep seed` makes: how many tenants, people and entries, from which seed.
public struct SeedOptions: Sendable, Hashable {
    /// The same seed gives the same data (ids, names, texts, dates, files), on any machine.
    public var seed: UInt64 = 1
    public var tenants: Int = 2
    /// Young people across all tenants (each tenant also gets an admin, carers and social workers).
    public var youngPeople: Int = 40
    /// Journal entries across all young people, the heavy person's included.
    public var entries: Int = 10_000
    /// The entries of one young person of the first tenant (username `heavy`); 0 for none.
    public var heavyPersonEntries: Int = 0
    /// Tenants are `<prefix>-1`, `<prefix>-2`, ...: the prefix does not change the data.
    public var tenantPrefix: String = "seed"
    /// Every seeded person's password (hashed once with the real hasher).
    public var password: String = "seed-password"
    /// The last day entries are about; they spread over `days` days up to it.
    public var until: PostgresDate = PostgresDate(year: 2026, month: 10, day: 31)
    public var days: Int = 730
    /// Connections loading at once.
    public var jobs: Int = 2
    /// About how many entries one transaction loads.
    public var batchEntries: Int = 50_000
    /// Settings of the modules' own seeds (`--set <module>.<key>=<value>`): module, key, value.
    public var moduleSettings: [String: [String: String]] = [:]

    public init() {}

    /// Why these options cannot be seeded, or nil.
    public var problem: String? {
        if tenants < 1 { return "--tenants: at least 1" }
        if youngPeople < tenants { return "--people: at least one young person per tenant (\(tenants))" }
        if entries < 0 || heavyPersonEntries < 0 { return "--entries, --heavy-person-entries: not negative" }
        if heavyPersonEntries > entries { return "--heavy-person-entries: at most --entries (\(entries))" }
        if entries > heavyPersonEntries && youngPeople < 2 && heavyPersonEntries > 0 {
            return "--people: the heavy person and at least one more, for the other entries"
        }
        if days < 1 { return "--days: at least 1" }
        if jobs < 1 { return "--jobs: at least 1" }
        if !TenantFile.isValidSlug(tenantPrefix + "-1") || tenantPrefix.count > 50 {
            return "--tenant-prefix: lowercase letters, digits and single hyphens, at most 50 characters"
        }
        for (name, settings) in moduleSettings.sorted(by: { $0.key < $1.key }) {
            guard let module = StorykeepModules.all.first(where: { $0.name == name }) else {
                return "--set \(name).…: there is no module \(name)"
            }
            if let key = settings.keys.sorted().first(where: { module.seedSettings[$0] == nil }) {
                let known = module.seedSettings.keys.sorted().map { "\(name).\($0)" }
                return "--set \(name).\(key): the \(name) module's seed takes "
                    + (known.isEmpty ? "no settings" : known.joined(separator: ", "))
            }
        }
        return nil
    }
}

/// One seeded person.
public struct SeedPerson: Sendable, Hashable {
    public var id: UUID
    public var role: PersonRole
    public var username: String?
    public var email: String?
    public var displayName: String
    public var externalRef: String?
    /// Journal entries to write for them (young people only).
    public var entryCount: Int
    /// Their position among the tenant's people, which names their random stream.
    public var index: Int

    /// What they log in with.
    public var loginName: String { username ?? email ?? "" }
}

/// One seeded tenant: its file and its people.
public struct SeedTenant: Sendable {
    public var index: Int
    public var file: TenantFile
    public var yaml: String
    public var people: [SeedPerson]
    /// Filled in once the tenant is in the database.
    public var id: UUID?

    public var slug: String { file.slug }
}

/// The whole plan, decided from the options before anything is written.
public struct SeedPlan: Sendable {
    public var options: SeedOptions
    public var tenants: [SeedTenant]
    /// The heavy person (tenant 0), if any.
    public var heavy: SeedPerson?

    public init(_ options: SeedOptions) throws {
        if let problem = options.problem { throw SeedError(problem) }
        self.options = options
        var random = SeedRandom(seed: options.seed, stream: [0])
        let tenantCount = options.tenants
        // Young people per tenant, as even as can be.
        let perTenant = (0..<tenantCount).map { options.youngPeople / tenantCount + ($0 < options.youngPeople % tenantCount ? 1 : 0) }
        // Entries per young person: the heavy person's, then the rest by uneven weights (some
        // write every day, some once a month).
        let others = options.youngPeople - (options.heavyPersonEntries > 0 ? 1 : 0)
        let rest = options.entries - options.heavyPersonEntries
        let weights = (0..<max(others, 0)).map { _ in 0.15 - log(1 - random.unit()) }
        let total = weights.reduce(0, +)
        var counts = weights.map { Int(Double(rest) * $0 / total) }
        var short = rest - counts.reduce(0, +)
        var i = 0
        while short > 0 && !counts.isEmpty {
            counts[i % counts.count] += 1
            short -= 1
            i += 1
        }
        // A MOOD entry a day at most: nobody gets more entries than the plan can hold.
        let cap = options.days * 40
        if counts.contains(where: { $0 > cap }) || options.heavyPersonEntries > cap {
            throw SeedError("--entries: too many for \(options.youngPeople) young people over \(options.days) days (at most \(cap) each)")
        }
        var nextCount = counts.makeIterator()

        var tenants: [SeedTenant] = []
        var heavy: SeedPerson?
        for t in 0..<tenantCount {
            var tr = SeedRandom(seed: options.seed, stream: [1, UInt64(t)])
            let slug = "\(options.tenantPrefix)-\(t + 1)"
            let icons = SeedText.moodIconSets[t % SeedText.moodIconSets.count]
            let name = SeedText.agencies[t % SeedText.agencies.count] + (t >= SeedText.agencies.count ? " \(t / SeedText.agencies.count + 1)" : "")
            let tags = SeedText.suggestedTags.filter { _ in tr.chance(0.8) }
            let labels = icons.map(\.label)
            let prompts = SeedText.prompts.map { text in
                tr.chance(0.3) ? (text, Array(labels.prefix(tr.int(1...3)))) : (text, [])
            }
            let yaml = """
                # Synthetic tenant of `storykeep seed --seed \(options.seed)`: fictional.
                slug: \(slug)
                displayName: "\(name) (seed)"
                timeZone: \(tr.pick(SeedText.timeZones))
                termsVersion: "seed-1"
                modules: [tags, rewards, sharing, archive, export]
                archive:
                  retentionDays: 30
                moodIcons:
                \(icons.map { "  - { emoji: \"\($0.emoji)\", label: \"\($0.label)\" }" }.joined(separator: "\n"))
                suggestedTags: [\(tags.map { "\"\($0)\"" }.joined(separator: ", "))]
                prompts:
                \(prompts.map { "  - { text: \"\($0.0)\", moods: [\($0.1.map { "\"\($0)\"" }.joined(separator: ", "))] }" }.joined(separator: "\n"))
                \(SeedText.rewards)
                """
            let file = try TenantFiles.decode(yaml, file: "\(slug).yaml")

            var people: [SeedPerson] = []
            func add(_ role: PersonRole, username: String?, email: String?, name: String, ref: String?, entries: Int) {
                var pr = SeedRandom(seed: options.seed, stream: [2, UInt64(t), UInt64(people.count)])
                people.append(
                    SeedPerson(
                        id: pr.uuid(), role: role, username: username, email: email, displayName: name, externalRef: ref,
                        entryCount: entries, index: people.count))
            }
            func fullName(_ r: inout SeedRandom) -> String { r.pick(SeedText.firstNames) + " " + r.pick(SeedText.lastNames) }
            add(.agencyAdmin, username: nil, email: "admin@agency-\(t + 1).example.org", name: fullName(&tr), ref: nil, entries: 0)
            let young = perTenant[t]
            for y in 0..<young {
                let first = tr.pick(SeedText.firstNames)
                let name = first + " " + String(tr.pick(SeedText.lastNames).prefix(1)) + "."
                if t == 0 && y == 0 && options.heavyPersonEntries > 0 {
                    add(.youngPerson, username: "heavy", email: nil, name: name, ref: "YP-\(t + 1)-\(y + 1)",
                        entries: options.heavyPersonEntries)
                    heavy = people.last
                } else {
                    add(.youngPerson, username: "\(first.lowercased())-\(y + 1)", email: nil, name: name,
                        ref: "YP-\(t + 1)-\(y + 1)", entries: nextCount.next() ?? 0)
                }
            }
            for c in 0..<max(1, young / 3) {
                add(.carer, username: nil, email: "carer\(c + 1)@agency-\(t + 1).example.org", name: fullName(&tr), ref: nil, entries: 0)
            }
            for s in 0..<max(1, young / 12) {
                add(.socialWorker, username: nil, email: "sw\(s + 1)@agency-\(t + 1).example.org", name: fullName(&tr), ref: nil, entries: 0)
            }
            tenants.append(SeedTenant(index: t, file: file, yaml: yaml, people: people))
        }
        self.tenants = tenants
        self.heavy = heavy
    }

    /// The young people of each tenant in groups of about `batchEntries` entries (the heavy
    /// person alone), one transaction each, in a fixed order.
    var batches: [SeedBatch] {
        var batches: [SeedBatch] = []
        for tenant in tenants {
            var current: [SeedPerson] = [], count = 0
            func close() {
                if !current.isEmpty { batches.append(SeedBatch(number: batches.count, tenant: tenant.index, people: current)) }
                current = []
                count = 0
            }
            for person in tenant.people where person.role == .youngPerson {
                if person.username == "heavy" && tenant.index == 0 {
                    close()
                    current = [person]
                    close()
                    continue
                }
                current.append(person)
                count += person.entryCount
                if count >= options.batchEntries { close() }
            }
            close()
        }
        return batches
    }
}

/// Young people of one tenant whose journals load in one transaction.
struct SeedBatch: Sendable {
    var number: Int
    var tenant: Int
    var people: [SeedPerson]
    var entries: Int { people.reduce(0) { $0 + $1.entryCount } }
}

/// Why seeding stopped.
public struct SeedError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

import ArgumentParser
import Foundation
import Postgres
import Storykeep
import StorykeepSeed
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `storykeep seed`: synthetic tenants, people and journals, reproducible from a seed, for
/// development and benchmarks.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Fill the database with synthetic tenants, people and journals (fictional, reproducible).",
        discussion: """
            Makes --tenants tenants <prefix>-1, <prefix>-2, ... (through the tenant machinery, as \
            the owner role), each with an admin, young people, carers and social workers, and \
            --entries journal entries of every kind with tags, moods and small media files, spread \
            over --days days up to --until. The same --seed gives the same data. Every person's \
            password is --password; young people log in with their username, adults with their \
            email; one young person of the first tenant, `heavy`, gets --heavy-person-entries \
            entries. Rows are written as the app role through row-level security, in the context \
            its policies ask for (see Sources/Storykeep/Seed/Seeder.swift). Then every module \
            switched on in a tenant seeds its own data (assignments, shares, ...), tuned with \
            --set. Progress goes to standard error, the summary to standard output.
            """
    )

    @Option(help: "The seed: the same seed gives the same data.")
    var seed: UInt64 = 1

    @Option(help: "How many tenants.")
    var tenants: Int = SeedOptions().tenants

    @Option(help: "How many young people, across all tenants (adults come in proportion).")
    var people: Int = SeedOptions().youngPeople

    @Option(help: "How many journal entries, across all young people.")
    var entries: Int = SeedOptions().entries

    @Option(help: "The entries of the young person `heavy` of the first tenant (included in --entries); 0 for none.")
    var heavyPersonEntries: Int = SeedOptions().heavyPersonEntries

    @Option(help: "Tenants are <prefix>-1, <prefix>-2, ...")
    var tenantPrefix: String = SeedOptions().tenantPrefix

    @Option(help: "Every seeded person's password.")
    var password: String = SeedOptions().password

    @Option(help: "The last day entries are about (YYYY-MM-DD).")
    var until: String = SeedOptions().until.description

    @Option(help: "Entries spread over this many days up to --until.")
    var days: Int = SeedOptions().days

    @Option(help: "Connections loading at once.")
    var jobs: Int = SeedOptions().jobs

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "A setting of a module's own seed, as <module>.<key>=<value> (repeatable).",
            discussion: SeedCommand.moduleSettingsHelp, valueName: "module.key=value"))
    var settings: [String] = []

    /// Every module's seed settings, for `--help`.
    static var moduleSettingsHelp: String {
        StorykeepModules.all.flatMap { module in
            module.seedSettings.sorted { $0.key < $1.key }.map { "\(module.name).\($0.key): \($0.value)" }
        }.joined(separator: "\n")
    }

    func options() throws -> SeedOptions {
        var options = SeedOptions()
        options.seed = seed
        options.tenants = tenants
        options.youngPeople = people
        options.entries = entries
        options.heavyPersonEntries = heavyPersonEntries
        options.tenantPrefix = tenantPrefix
        options.password = password
        guard let day = PostgresDate(until) else { throw ValidationError("--until: a day as YYYY-MM-DD") }
        options.until = day
        options.days = days
        options.jobs = jobs
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            let path = parts[0].split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, path.count == 2 else { throw ValidationError("--set \(setting): <module>.<key>=<value>") }
            options.moduleSettings[path[0], default: [:]][path[1]] = parts[1]
        }
        if let problem = options.problem { throw ValidationError(problem) }
        return options
    }

    func validate() throws {
        _ = try options()
    }

    func run() async throws {
        let plan = try SeedPlan(try options())
        let config = try await CommandSupport.config()
        let logger = CommandSupport.bootstrapLogging(config)
        let hasher = try PasswordHasher(config: config.argon2, threadCount: 1)
        // Hashed once, with the server's own parameters, for every seeded person.
        let hash = try await hasher.hash(password)
        let reporter = ProgressReporter(interactive: isatty(2) == 1)
        var appConfig = config
        appConfig.database.poolSize = max(appConfig.database.poolSize, plan.options.jobs)
        let summary = try await CommandSupport.using(try CommandSupport.ownerPool(config, logger: logger)) { owner in
            try await CommandSupport.using(try CommandSupport.appPool(appConfig, logger: logger)) { app in
                try await Seeder.run(plan, owner: owner, app: app, passwordHash: hash) { reporter.report($0) }
            }
        }
        reporter.finish()
        print(Self.describe(summary, password: password))
    }

    static func describe(_ summary: SeedSummary, password: String) -> String {
        let c = summary.counts
        let slugs = summary.tenants.map(\.slug)
        let people = summary.people.values.reduce(0, +)
        let kinds = EntryKind.allCases.map { "\(grouped(c.entriesByKind[$0] ?? 0)) \($0.rawValue)" }.joined(separator: ", ")
        var lines = [
            "seeded \(slugs.count) tenants (\(slugs.count <= 4 ? slugs.joined(separator: ", ") : "\(slugs[0]) ... \(slugs.last!)")) "
                + "in \(seconds(summary.elapsed)) s",
            "  \(grouped(people)) people: \(grouped(summary.people[.youngPerson] ?? 0)) young people, "
                + "\(grouped(summary.people[.carer] ?? 0)) carers, \(grouped(summary.people[.socialWorker] ?? 0)) social workers, "
                + "\(grouped(summary.people[.agencyAdmin] ?? 0)) admins",
            "  \(grouped(c.entries)) entries (\(kinds); \(grouped(c.archivedEntries)) archived), "
                + "\(grouped(c.tags)) tags on \(grouped(c.entryTags)) entry tags, "
                + "\(grouped(c.media)) media files (\(grouped(c.mediaBytes / 1024)) KiB)",
            "  \(grouped(Int(Double(c.entries) / max(0.001, secondsValue(summary.elapsed))))) entries per second",
        ]
        for (module, counts) in summary.moduleCounts.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(module): " + counts.sorted { $0.key < $1.key }.map { "\(grouped($0.value)) \($0.key)" }.joined(separator: ", "))
        }
        lines += [
            "password of every seeded person: \(password)",
        ]
        if let heavy = summary.heavy, let tenant = summary.tenants.first {
            lines.append(
                "heavy person: username \(heavy.username ?? "") in tenant \(tenant.slug) (/t/\(tenant.slug)/graphql), "
                    + "\(grouped(heavy.entryCount)) entries")
        } else if let tenant = summary.tenants.first, let someone = tenant.people.first(where: { $0.role == .youngPerson }) {
            lines.append("for example: username \(someone.loginName) in tenant \(tenant.slug) (/t/\(tenant.slug)/graphql)")
        }
        lines.append("digest: \(summary.digest)")
        return lines.joined(separator: "\n")
    }

    static func secondsValue(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func seconds(_ duration: Duration) -> String { String(format: "%.1f", secondsValue(duration)) }

    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return out
    }
}

/// The progress line on standard error: rewritten in place on a terminal, otherwise a line at
/// each phase and every few seconds.
final class ProgressReporter: Sendable {
    private let interactive: Bool
    private let state = Mutex((lastPrint: ContinuousClock.now - .seconds(3600), lastPhase: "", printed: false))

    init(interactive: Bool) {
        self.interactive = interactive
    }

    func report(_ progress: SeedProgress) {
        let now = ContinuousClock.now
        let line = Self.line(progress)
        let shouldPrint = state.withLock { state in
            let every: Duration = interactive ? .milliseconds(200) : .seconds(5)
            guard progress.phase.rawValue != state.lastPhase || now - state.lastPrint >= every
                || progress.phase == .done
            else { return false }
            state.lastPrint = now
            state.lastPhase = progress.phase.rawValue
            state.printed = true
            return true
        }
        guard shouldPrint else { return }
        write(interactive ? "\r\u{1B}[2K" + line : line + "\n")
    }

    func finish() {
        if interactive && state.withLock({ $0.printed }) { write("\n") }
    }

    static func line(_ p: SeedProgress) -> String {
        let elapsed = SeedCommand.secondsValue(p.elapsed)
        switch p.phase {
        case .tenants: return "seed: tenants..."
        case .people: return "seed: people \(SeedCommand.grouped(p.peopleDone))/\(SeedCommand.grouped(p.peopleTotal)) "
            + "(\(String(format: "%.1f", elapsed)) s)"
        case .modules: return "seed: \(p.module ?? "modules")... (\(String(format: "%.1f", elapsed)) s)"
        case .journals, .done:
            let fraction = p.entriesTotal == 0 ? 1 : Double(p.entriesDone) / Double(p.entriesTotal)
            let width = 24, filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            let rate = elapsed > 0 ? Double(p.entriesDone) / elapsed : 0
            return "seed: entries [\(bar)] \(SeedCommand.grouped(p.entriesDone))/\(SeedCommand.grouped(p.entriesTotal)) "
                + "\(String(format: "%3.0f", fraction * 100))% \(String(format: "%.1f", elapsed)) s, "
                + "\(SeedCommand.grouped(Int(rate))) entries/s"
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

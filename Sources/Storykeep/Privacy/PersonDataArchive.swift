import Foundation
import Postgres
public import StorykeepCore

/// Builds the ZIP of everything Storykeep holds about a person: each module's files
/// (``StorykeepModule/personData(_:)``), read in the person's own context in one transaction, so
/// that the files agree with each other, and a README.txt saying what each file is.
public struct PersonDataArchive: Sendable {
    /// The modules asked, in order (the composition's: `StorykeepModules.all`).
    public var modules: @Sendable () -> [any StorykeepModule]

    public init(modules: @escaping @Sendable () -> [any StorykeepModule]) {
        self.modules = modules
    }

    /// The ZIP of the person `personID` (whose role is `role`) of `tenant`, dated `now`.
    /// `progress` is told the percentage done after each module (0–99; the caller says 100).
    public func build(
        tenant: Tenant, personID: UUID, role: PersonRole, pool: PostgresPool, now: Date,
        progress: @Sendable (Int) async throws -> Void
    ) async throws -> [UInt8] {
        let modules = modules()
        let context = AccountContext.person(tenantID: tenant.id, personID: personID, role: role)
        let files = try await pool.transaction(settings: context.settings) { tx in
            try await tx.execute("set transaction read only")
            var files: [PersonDataFile] = []
            for (index, module) in modules.enumerated() {
                files += try await module.personData(PersonDataSubject(tenant: tenant, personID: personID, role: role, transaction: tx))
                try await progress((index + 1) * 95 / max(1, modules.count))
            }
            return files
        }
        var zip = ZipWriter(date: now)
        try zip.add("README.txt", Array(Self.readme(files, agency: tenant.displayName, now: now).utf8))
        for file in files { try zip.add(file.path, file.bytes) }
        return try zip.finish()
    }

    /// README.txt: what the archive is, and a paragraph for each file that has words of its own.
    static func readme(_ files: [PersonDataFile], agency: String, now: Date) -> String {
        var text = """
            YOUR DATA FROM STORYKEEP

            This is everything Storykeep keeps about you at \(agency), made on \(DateTimeScalar.string(now)) (UTC).
            You asked for it, or the agency did for you. It is yours: keep it somewhere safe, because it can hold
            private things you wrote.

            The .json files are plain text. You can open them with any text editor or notes app. Each one is a list
            of things in { curly brackets }, with a name and a value for each detail, like "day": "2026-05-01".
            Times are in UTC (the same as London time in winter). An "id" is a code that names one thing, so that
            different files can point to it.

            WHAT EACH FILE IS

            """
        for file in files {
            guard let about = file.about else { continue }
            text += "\(file.path)\n    \(about)\n\n"
        }
        if files.contains(where: { $0.path.hasPrefix("media/") }) {
            text += "media/\n    Your pictures, drawings, sounds and videos, each named by its id (see media.json and entries.json).\n\n"
        }
        text += """
            If something looks wrong or you have a question, talk to your social worker or the agency. You can ask
            them to correct it, or to delete your account.

            """
        return text
    }
}

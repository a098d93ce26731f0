import Foundation
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore

@Suite struct ConfigTests {
    /// A scratch checkout: the real Config/storykeep.json, and `.data/storykeep.env` if given.
    func checkout(envFile: String? = nil) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Config"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Config/storykeep.json"),
            to: root.appendingPathComponent("Config/storykeep.json")
        )
        if let envFile {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(".data"), withIntermediateDirectories: true)
            try envFile.write(to: root.appendingPathComponent(".data/storykeep.env"), atomically: true, encoding: .utf8)
        }
        return root.path
    }

    @Test func theFileHoldsTheDefaults() async throws {
        let config = try await StorykeepConfig.load(environment: [:], directory: try checkout())
        #expect(config.http.host == "127.0.0.1")
        #expect(config.http.port == 8080)
        #expect(config.database.poolSize == 4)
        #expect(config.database.url == nil)
        #expect(config.argon2.memoryKiB >= 19456)
        #expect(config.argon2.threadNiceness == 19)
        #expect(config.uploads.maxBytes == 100 * 1_048_576)
        #expect(config.archive.purgeInterval == .seconds(3600))
        #expect(config.tenants.directory == "tenants")
        #expect(config.database.migrationsDirectory == "Migrations")
        #expect(config.database.statementTimeout == .seconds(5))
        #expect(config.database.preparedStatements)
        #expect(config.database.listenURL == nil)
        #expect(config.jobs.enabled)
    }

    @Test func environmentVariablesOverrideTheFile() async throws {
        let config = try await StorykeepConfig.load(
            environment: [
                "STORYKEEP_HTTP_PORT": "9090",
                "STORYKEEP_HTTP_BODY_LIMIT_BYTES": "2048",
                "STORYKEEP_DATABASE_POOL_SIZE": "3",
                "STORYKEEP_DATABASE_STATEMENT_TIMEOUT_SECONDS": "0.25",
                "STORYKEEP_LOG_LEVEL": "debug",
                "STORYKEEP_JOBS_ENABLED": "false",
                "DATABASE_URL": "postgresql://app@db/storykeep",
                "STORYKEEP_OWNER_DATABASE_URL": "postgresql://owner@db/storykeep",
                "HTTP_PORT": "1",  // not ours: no prefix
            ],
            directory: try checkout()
        )
        #expect(config.http.port == 9090)
        #expect(config.http.bodyLimitBytes == 2048)
        #expect(config.database.poolSize == 3)
        #expect(config.database.statementTimeout == .milliseconds(250))
        #expect(config.log.level == "debug")
        #expect(!config.jobs.enabled)
        #expect(try config.database.requireURL() == "postgresql://app@db/storykeep")
        #expect(try config.database.requireOwnerURL() == "postgresql://owner@db/storykeep")
    }

    @Test func theCheckoutsEnvFileIsReadAndTheEnvironmentWins() async throws {
        let directory = try checkout(envFile: """
            # written by make run
            DATABASE_URL=postgresql://storykeep_app:pw@%2Ftmp%2Fx:5433/storykeep
            STORYKEEP_OWNER_DATABASE_URL=postgresql://storykeep_owner:pw@%2Ftmp%2Fx:5433/storykeep
            STORYKEEP_HTTP_PORT=7070
            """)
        let fromFile = try await StorykeepConfig.load(environment: [:], directory: directory)
        #expect(fromFile.database.url == "postgresql://storykeep_app:pw@%2Ftmp%2Fx:5433/storykeep")
        #expect(fromFile.database.ownerURL == "postgresql://storykeep_owner:pw@%2Ftmp%2Fx:5433/storykeep")
        #expect(fromFile.http.port == 7070)

        let overridden = try await StorykeepConfig.load(environment: ["DATABASE_URL": "postgresql://elsewhere/db"], directory: directory)
        #expect(overridden.database.url == "postgresql://elsewhere/db")
        #expect(overridden.http.port == 7070)
    }

    @Test func aValueOutOfRangeIsAnErrorNamingTheKey() async throws {
        await #expect(throws: ConfigError.invalid("http.port", expected: "a value from 0 to 65535", found: "70000")) {
            try await StorykeepConfig.load(environment: ["STORYKEEP_HTTP_PORT": "70000"], directory: try checkout())
        }
        await #expect(throws: ConfigError.invalid("database.statementTimeoutSeconds", expected: "a value from 0.001 to 86400.0", found: "0.0")) {
            try await StorykeepConfig.load(environment: ["STORYKEEP_DATABASE_STATEMENT_TIMEOUT_SECONDS": "0"], directory: try checkout())
        }
        await #expect(throws: ConfigError.invalid("argon2.memoryKibibytes", expected: "a value of at least 19456", found: "1024")) {
            try await StorykeepConfig.load(environment: ["STORYKEEP_ARGON2_MEMORY_KIBIBYTES": "1024"], directory: try checkout())
        }
        await #expect(throws: ConfigError.invalid("argon2.threadNiceness", expected: "a value from 0 to 19", found: "20")) {
            try await StorykeepConfig.load(environment: ["STORYKEEP_ARGON2_THREAD_NICENESS": "20"], directory: try checkout())
        }
    }

    @Test func aMissingDatabaseURLSaysHowToSetOne() async throws {
        let config = try await StorykeepConfig.load(environment: [:], directory: try checkout())
        #expect(throws: ConfigError.missing("DATABASE_URL")) { try config.database.requireURL() }
        #expect(ConfigError.missing("DATABASE_URL").description.contains("make run"))
    }

    @Test func noConfigurationFileIsAnError() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)").path
        await #expect(throws: ConfigError.noFile(empty + "/Config/storykeep.json")) {
            try await StorykeepConfig.load(environment: [:], directory: empty)
        }
    }
}

extension ConfigTests {
    @Test func theExplorerIsOffByDefaultAndItsAssetsURLIsChecked() async throws {
        let defaults = try await StorykeepConfig.load(environment: [:], directory: try checkout())
        #expect(!defaults.explorer.enabled)
        #expect(defaults.explorer.assetsURL == nil)
        let hosted = try await StorykeepConfig.load(
            environment: ["STORYKEEP_EXPLORER_ENABLED": "true", "STORYKEEP_EXPLORER_ASSETS_URL": "https://cdn.agency.example/graphiql"],
            directory: try checkout())
        #expect(hosted.explorer.enabled)
        #expect(hosted.explorer.assetsURL == "https://cdn.agency.example/graphiql/")
        for bad in ["javascript:alert(1)", "//cdn.example", "https://", "https://cdn.example/a b", "https://cdn.example/\"x", "https://cdn.example/?v=1"] {
            await #expect(throws: ConfigError.self, "\(bad)") {
                try await StorykeepConfig.load(environment: ["STORYKEEP_EXPLORER_ASSETS_URL": bad], directory: try checkout())
            }
        }
    }
}

import Configuration
import Foundation
import SystemPackage

extension StorykeepConfig {
    /// Environment variables whose names follow a convention of their own rather than
    /// `STORYKEEP_` + the key (`http.bodyLimitBytes` → `STORYKEEP_HTTP_BODY_LIMIT_BYTES`).
    static let conventionalEnvironmentKeys: [[String]: [String]] = [
        ["database", "url"]: ["database", "url"],  // DATABASE_URL
        ["database", "ownerUrl"]: ["storykeep", "owner", "database", "url"],  // STORYKEEP_OWNER_DATABASE_URL
    ]

    /// Loads the configuration the way every `storykeep` command does. Highest priority first:
    ///
    /// 1. the process environment: `STORYKEEP_` + the key in upper snake case
    ///    (`STORYKEEP_HTTP_PORT=9000`), and `DATABASE_URL`, `STORYKEEP_OWNER_DATABASE_URL`;
    /// 2. `.data/storykeep.env` in `directory`, the same names, as `make run` writes it, so commands
    ///    run from the checkout find the project-local database with no flags;
    /// 3. the JSON file named by `STORYKEEP_CONFIG`, else `Config/storykeep.json` in `directory`:
    ///    the defaults.
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        directory: String = FileManager.default.currentDirectoryPath
    ) async throws -> StorykeepConfig {
        let root = FilePath(directory)
        let file = environment["STORYKEEP_CONFIG"].map { FilePath($0) } ?? root.appending("Config/storykeep.json")
        guard FileManager.default.fileExists(atPath: file.string) else {
            throw ConfigError.noFile(file.string)
        }
        let reader = ConfigReader(providers: [
            storykeepNames(EnvironmentVariablesProvider(environmentVariables: environment)),
            storykeepNames(
                try await EnvironmentVariablesProvider(
                    environmentFilePath: root.appending(".data/storykeep.env"),
                    allowMissing: true
                )
            ),
            try await FileProvider<JSONSnapshot>(filePath: file),
        ])
        return try StorykeepConfig(reader: reader)
    }

    /// Maps configuration keys to Storykeep's environment variable names.
    static func storykeepNames(_ provider: EnvironmentVariablesProvider) -> some ConfigProvider {
        provider.mapKeys { key in
            if let name = conventionalEnvironmentKeys[key.components] {
                return AbsoluteConfigKey(name, context: key.context)
            }
            return key.prepending("storykeep")
        }
    }
}

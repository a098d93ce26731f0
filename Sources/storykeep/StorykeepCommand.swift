import ArgumentParser

/// `storykeep`: the one binary of the project.
@main
struct StorykeepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storykeep",
        abstract: "Storykeep: participatory recordkeeping for young people in care.",
        discussion: """
            Run from the checkout, commands read Config/storykeep.json and .data/storykeep.env \
            (written by `make run`); STORYKEEP_* variables, DATABASE_URL and \
            STORYKEEP_OWNER_DATABASE_URL override them.
            """,
        version: StorykeepCommand.version,
        // One line per command; each command lives in its own file.
        subcommands: [
            ServeCommand.self,
            MigrateCommand.self,
            TenantCommand.self,
            UserCommand.self,
            SchemaCommand.self,
            GQLCommand.self,
            PurgeCommand.self,
            SeedCommand.self,
            DocumentsCommand.self,
            PersonCommand.self,
        ]
    )

    /// What `storykeep --version` prints: the release, raised with each release of the server.
    static let version = "0.17.0"
}

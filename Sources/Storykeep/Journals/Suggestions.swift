import Foundation
import StorykeepCore
import Postgres

/// Smart suggestions: prompts from the tenant file offered when writing, chosen at random among
/// those that fit the person's mood, leaving out the ones they answered most recently.
public enum Suggestions {
    /// The prompts (their text, as `Entry.suggestion` keeps it) the person answered most
    /// recently, newest first, each once: one statement over the `entries_suggestions` index.
    public static func recentlyAnswered(limit: Int, on database: some PostgresQueryable) async throws -> [String] {
        try await database.query(JournalStatements.recentlyAnsweredPrompts, limit).map { try $0.decode(String.self, at: 0) }
    }

    /// Up to `count` prompts of `prompts`, in random order: those meant for `mood` (or for any
    /// mood) that are not in `recent` first; then, if too few, the recent ones, least recently
    /// answered first.
    public static func choose(
        count: Int, from prompts: [Prompt], mood: String?, recent: [String], using generator: inout some RandomNumberGenerator
    ) -> [Prompt] {
        let fitting = prompts.filter { prompt in prompt.moods.isEmpty || mood.map(prompt.moods.contains) ?? true }
        let recentRank = Dictionary(recent.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // An entry keeps the prompt's text in the language it was shown in: any of them.
        func rank(_ prompt: Prompt) -> Int? { prompt.text.all.compactMap { recentRank[$0] }.min() }
        let fresh = fitting.filter { rank($0) == nil }.shuffled(using: &generator)
        let stale = fitting.filter { rank($0) != nil }.sorted { rank($0)! > rank($1)! }
        return Array((fresh + stale).prefix(max(count, 0)))
    }
}

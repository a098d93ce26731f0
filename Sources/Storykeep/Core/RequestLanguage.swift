import Foundation
public import Postgres
import Synchronization

/// The language one request's texts (``LocalizedText``) are shown in, chosen once, when a
/// resolver first asks (``ResolverContext/language(on:)``):
///
/// 1. the person's own choice (`profile.language`), while the agency still has that language;
/// 2. else the best of the request's `Accept-Language` that the agency has (``AcceptLanguage``);
/// 3. else English, ``LocalizedText/fallback``.
///
/// Only texts are translated: error messages stay English, with their stable
/// `extensions.code` for the apps to translate.
public final class RequestLanguage: Sendable {
    /// Reads the person's chosen language in the request's transaction (the profile module's).
    public typealias PersonLanguage = @Sendable (PostgresTransaction) async throws -> String?

    /// The agency's languages (``TenantFile/languages``).
    public let languages: [String]
    /// The request's `Accept-Language` header, if any.
    public let acceptLanguage: String?
    let personLanguage: PersonLanguage?
    private let chosen = Mutex<String?>(nil)

    public init(languages: [String], acceptLanguage: String?, personLanguage: PersonLanguage?) {
        self.languages = languages
        self.acceptLanguage = acceptLanguage
        self.personLanguage = personLanguage
    }

    /// The language, asking `personal` for the person's choice the first time (nil: none, or
    /// nobody to ask).
    func language(personal: () async throws -> String?) async throws -> String {
        if let language = chosen.withLock({ $0 }) { return language }
        let own = try await personal().flatMap { languages.contains($0) ? $0 : nil }
        let result = own ?? AcceptLanguage.best(acceptLanguage, among: languages) ?? LocalizedText.fallback
        chosen.withLock { $0 = result }
        return result
    }
}

/// An HTTP `Accept-Language` header (RFC 9110 §12.5.4) matched against the languages a tenant has.
public enum AcceptLanguage {
    /// The language of `languages` the header prefers most: ranges by their `q` (1 when absent;
    /// 0 refuses), the first listed among equals; a range matches a language it names or whose
    /// primary subtag is it (`cy-GB` matches `cy`); `*` matches none in particular, so it leaves
    /// the choice to the fallback. Nil when the header names none of them.
    public static func best(_ header: String?, among languages: [String]) -> String? {
        guard let header else { return nil }
        var best: (language: String, quality: Double)?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first?.lowercased(), !range.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            guard quality > 0, quality <= 1 else { continue }
            let primary = range.split(separator: "-").first.map(String.init) ?? range
            guard let language = languages.first(where: { $0 == range || $0 == primary }) else { continue }
            if best == nil || quality > best!.quality { best = (language, quality) }
        }
        return best?.language
    }
}

import Foundation
public import StorykeepCore
import Yams

/// A tenant file that cannot be used, said the way a person fixing it needs: which file, which key,
/// what was expected there.
public struct TenantFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as it was named to the loader (`tenants/demo.yaml`).
    public var file: String
    /// The key, dotted, with list positions: `rewards.rules[1].stars`; empty for the whole file.
    public var keyPath: String
    /// What was expected, and usually what was found.
    public var problem: String

    public var description: String {
        keyPath.isEmpty ? "\(file): \(problem)" : "\(file): \(keyPath): \(problem)"
    }
}

/// Every problem found in a tenant directory; nothing is applied while there is one.
public struct TenantFilesError: Error, Sendable, Equatable, CustomStringConvertible {
    public var errors: [TenantFileError]

    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}

/// Reads tenant files: `<slug>.yaml`, one per agency, each in the format of the composed modules
/// (`StorykeepModules.tenantFileFormat`, which `import Storykeep` gives as the default).
public enum TenantFiles {
    /// The extension of tenant files; other files in the directory (a README) are not read.
    public static let fileExtension = "yaml"

    /// Reads and validates every tenant file in `directory`, all or nothing: any bad file, a file
    /// whose slug differs from its name, or a host claimed by two files throws a
    /// ``TenantFilesError`` listing every problem found.
    public static func load(directory: String, format: TenantFileFormat) throws(TenantFilesError) -> [TenantFile] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw TenantFilesError(errors: [.init(file: directory, keyPath: "", problem: "cannot read the directory")])
        }
        let paths = names.filter { $0.hasSuffix(".\(fileExtension)") && !$0.hasPrefix(".") }.sorted()
            .map { directory.hasSuffix("/") ? directory + $0 : directory + "/" + $0 }
        guard !paths.isEmpty else {
            throw TenantFilesError(errors: [.init(file: directory, keyPath: "", problem: "expected at least one <slug>.yaml file")])
        }

        var tenants: [TenantFile] = []
        var errors: [TenantFileError] = []
        var hostOwners: [String: String] = [:]
        for path in paths {
            do throws(TenantFilesError) {
                let tenant = try read(file: path, format: format)
                for host in tenant.hosts {
                    if let other = hostOwners.updateValue(path, forKey: host) {
                        errors.append(.init(file: path, keyPath: "hosts", problem: "\(host) is already a host of \(other)"))
                    }
                }
                tenants.append(tenant)
            } catch {
                errors += error.errors
            }
        }
        guard errors.isEmpty else { throw TenantFilesError(errors: errors) }
        return tenants
    }

    /// Reads one tenant file, whose name must be its slug; throws its first problem.
    public static func load(file path: String, format: TenantFileFormat) throws(TenantFileError) -> TenantFile {
        do {
            return try read(file: path, format: format)
        } catch {
            throw error.errors[0]
        }
    }

    /// Decodes the YAML text of a tenant file; `file` names it in errors. Throws its first problem.
    public static func decode(_ text: String, file: String, format: TenantFileFormat) throws(TenantFileError) -> TenantFile {
        do {
            return try decodeReportingAll(text, file: file, format: format)
        } catch {
            throw error.errors[0]
        }
    }

    /// Reads one tenant file, whose name must be its slug; throws every problem it has.
    static func read(file path: String, format: TenantFileFormat) throws(TenantFilesError) -> TenantFile {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw TenantFilesError(errors: [TenantFileError(file: path, keyPath: "", problem: "cannot read the file as UTF-8 text")])
        }
        let tenant = try decodeReportingAll(text, file: path, format: format)
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        guard tenant.slug == stem else {
            throw TenantFilesError(errors: [
                TenantFileError(file: path, keyPath: "slug", problem: "expected \"\(stem)\", the file's name; found \"\(tenant.slug)\"")
            ])
        }
        return tenant
    }

    /// Decodes the YAML text of a tenant file, throwing every problem it has
    /// (``TenantFileProblems``), each at its key.
    static func decodeReportingAll(_ text: String, file: String, format: TenantFileFormat) throws(TenantFilesError) -> TenantFile {
        do {
            return try YAMLDecoder().decode(TenantFile.self, from: text, userInfo: format.userInfo)
        } catch {
            throw TenantFilesError(errors: TenantFileError.every(in: error, file: file))
        }
    }
}

extension TenantFileError {
    /// Each problem an error of decoding a tenant file stands for (``TenantFileProblems`` holds
    /// several; a decoder may hand it on as the cause of a decoding error, as Yams does), in the
    /// file's words.
    package static func every(in error: any Error, file: String) -> [TenantFileError] {
        let underlying = (error as? DecodingError).flatMap { error in
            if case .dataCorrupted(let context) = error { context.underlyingError as? TenantFileProblems } else { nil }
        }
        let problems = underlying?.errors ?? (error as? TenantFileProblems)?.errors ?? [error]
        return problems.map { TenantFileError(file: file, error: $0) }
    }

    /// Says an error of decoding a tenant file in the file's words.
    init(file: String, error: any Error) {
        if let error = error as? DecodingError {
            self.init(file: file, decodingError: error)
        } else {
            self.init(file: file, keyPath: "", problem: "expected YAML: \(error)")
        }
    }

    /// Says a decoding error in a tenant file's words.
    init(file: String, decodingError: DecodingError) {
        switch decodingError {
        case .typeMismatch(let type, let context):
            self.init(file: file, keyPath: Self.keyPath(context.codingPath), problem: "expected \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            self.init(file: file, keyPath: Self.keyPath(context.codingPath), problem: "expected \(Self.describe(type)), found nothing")
        case .keyNotFound(let key, let context):
            self.init(
                file: file, keyPath: Self.keyPath(context.codingPath + [key]),
                problem: "expected a value: this key is required"
            )
        case .dataCorrupted(let context) where context.codingPath.isEmpty && context.underlyingError != nil:
            // Yams wraps a YAML syntax error, which says where it is (line and column).
            self.init(file: file, keyPath: "", problem: "expected YAML: \(context.underlyingError!)")
        case .dataCorrupted(let context):
            self.init(file: file, keyPath: Self.keyPath(context.codingPath), problem: context.debugDescription)
        @unknown default:
            self.init(file: file, keyPath: "", problem: "\(decodingError)")
        }
    }

    /// `rewards.rules[1].stars`.
    static func keyPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    /// What a person calls a Swift type a decoder wanted.
    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is any Collection.Type where "\(type)".hasPrefix("Dictionary"): "a mapping of keys to values"
        case is any Collection.Type: "a list"
        default: "a mapping of keys to values"
        }
    }
}

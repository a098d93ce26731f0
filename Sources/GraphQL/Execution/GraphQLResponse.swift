/// The response to a request (graphql-js `ExecutionResult`).
///
/// `data` is nil — no "data" key at all — when the request failed before execution began: a
/// syntax error, a validation error, no such operation, or variables that do not coerce. That
/// is a *request error*: over HTTP with `application/graphql-response+json` it is answered
/// with status 400 (`isRequestError`). Once execution began, `data` is present (possibly
/// `.null`, when an error reached the root through non-null fields) and the status is 200.
public struct GraphQLResponse: Sendable, Hashable {
    /// The response's `data`. An executed response keeps it as the executor wrote it and builds
    /// this tree on each read (`jsonBytes()` needs no tree): read it once when you need it often.
    public var data: GraphQLValue? {
        get {
            switch storedData {
            case nil: nil
            case .value(let value): value
            case .tape(let tape): tape.value
            }
        }
        set { storedData = newValue.map(StoredData.value) }
    }
    public var errors: [GraphQLError]
    public var extensions: GraphQLObject?

    /// `data` as the executor wrote it (a tape, written to JSON without building a tree) or as
    /// a caller set it.
    private enum StoredData: Sendable {
        case value(GraphQLValue)
        case tape(ResponseTape)
    }
    private var storedData: StoredData?

    public init(data: GraphQLValue? = nil, errors: [GraphQLError] = [], extensions: GraphQLObject? = nil) {
        self.storedData = data.map(StoredData.value)
        self.errors = errors
        self.extensions = extensions
    }

    init(data: ResponseTape, errors: [GraphQLError]) {
        self.storedData = .tape(data)
        self.errors = errors
    }

    public static func == (lhs: GraphQLResponse, rhs: GraphQLResponse) -> Bool {
        lhs.data == rhs.data && lhs.errors == rhs.errors && lhs.extensions == rhs.extensions
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(data)
        hasher.combine(errors)
        hasher.combine(extensions)
    }

    /// Whether the request failed before execution (parse, validation, operation selection or
    /// variable coercion): the response has no `data` entry.
    public var isRequestError: Bool { storedData == nil }

    /// The response as JSON, keys in the order the specification recommends: "errors" first
    /// (the note in "Response Format", October 2021 edition, and graphql-js's `{ errors, data }`),
    /// then "data", then "extensions". Absent entries are left out; each error has "message",
    /// then "locations", "path" and "extensions" when it has them.
    public func jsonBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        var separator: [UInt8] = Array("{".utf8)
        if !errors.isEmpty {
            out.append(contentsOf: separator + Array("\"errors\":[".utf8))
            separator = Array(",".utf8)
            for (index, error) in errors.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                error.jsonValue.writeJSON(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        if let storedData {
            out.append(contentsOf: separator + Array("\"data\":".utf8))
            separator = Array(",".utf8)
            switch storedData {
            case .value(let data): data.writeJSON(to: &out)
            case .tape(let data): JSONWriter.write(data, to: &out)
            }
        }
        if let extensions {
            out.append(contentsOf: separator + Array("\"extensions\":".utf8))
            separator = Array(",".utf8)
            GraphQLValue.object(extensions).writeJSON(to: &out)
        }
        if out.isEmpty { out.append(UInt8(ascii: "{")) }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `jsonBytes()` as a string.
    public var json: String { String(decoding: jsonBytes(), as: UTF8.self) }

    /// The response as a value: what `json` serialises.
    public var value: GraphQLValue {
        var object = GraphQLObject()
        if !errors.isEmpty { object.append("errors", .list(errors.map(\.jsonValue))) }
        if let data { object.append("data", data) }
        if let extensions { object.append("extensions", .object(extensions)) }
        return .object(object)
    }
}

extension GraphQLError {
    /// The error as a response's `errors` entry: message, locations, path, extensions.
    public var jsonValue: GraphQLValue {
        var object: GraphQLObject = ["message": .string(message)]
        if !locations.isEmpty {
            object.append(
                "locations",
                .list(locations.map { .object(["line": .int($0.line), "column": .int($0.column)]) }))
        }
        if !path.isEmpty {
            object.append(
                "path",
                .list(
                    path.map {
                        switch $0 {
                        case .key(let key): .string(key)
                        case .index(let index): .int(index)
                        }
                    }))
        }
        if let extensions, !extensions.isEmpty { object.append("extensions", .object(extensions)) }
        return .object(object)
    }
}

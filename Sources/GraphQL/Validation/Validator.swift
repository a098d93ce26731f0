/// Validates a document against a schema, as graphql-js's `validate` does, and returns the
/// errors (none when the document is valid), in graphql-js's order and with its messages.
///
/// The document is walked once; every rule is called at the nodes it asked for (see
/// `ValidationRule`). After `options.maxErrors` errors the validation stops and a last error
/// says so ("Too many validation errors, error limit reached. Validation aborted."), as in
/// graphql-js: a hostile document with thousands of errors costs no more than that.
///
/// Besides the `rules`, the abuse limits of `options.limits` are checked (see
/// `ValidationLimits`), and a schema whose `introspectionEnabled` is off refuses `__schema` and
/// `__type`. Messages suggest no names ("Did you mean …?") when the schema's
/// `suggestionsEnabled` is off.
///
/// - Parameters:
///   - source: the text the document was parsed from, to give errors their line and column;
///     without it errors have no locations.
///   - rules: the rules to run, in the order their errors are reported; `specifiedRules` are the
///     specification's (graphql-js's `specifiedRules`).
public func validate(
    schema: GraphQLSchema, document: Document, source: Source? = nil,
    rules: [ValidationRule.Type] = specifiedRules, options: ValidationOptions = ValidationOptions()
) -> [GraphQLError] {
    let context = ValidationContext(schema: schema, document: document, options: options)
    if let maxDepth = options.limits.maxDepth {
        let tooDeep = MaxDepthRule.check(context, maxDepth: maxDepth)
        if !tooDeep.isEmpty {
            for error in tooDeep { context.report(error.message, [error.loc]) }
            return context.finish(source: source)
        }
    }
    var allRules = rules
    allRules += options.limits.rules
    if !schema.introspectionEnabled { allRules.append(NoSchemaIntrospectionCustomRule.self) }
    let instances = allRules.enumerated().map { index, rule in
        let instance = rule.init(context: context)
        instance.index = index
        return instance
    }
    ValidationWalker(context: context, rules: instances).walk()
    return context.finish(source: source)
}

/// How a validation runs, besides its rules.
public struct ValidationOptions: Sendable {
    /// The number of errors after which validation stops (graphql-js's `maxErrors`).
    public var maxErrors: Int
    /// Whether messages must not suggest names, whatever the schema says.
    public var hideSuggestions: Bool
    /// The abuse limits; `.none` for graphql-js's behaviour alone.
    public var limits: ValidationLimits

    public init(maxErrors: Int = 100, hideSuggestions: Bool = false, limits: ValidationLimits = ValidationLimits()) {
        self.maxErrors = maxErrors
        self.hideSuggestions = hideSuggestions
        self.limits = limits
    }
}

/// The rules of the GraphQL specification, in graphql-js's order (which orders the errors):
/// graphql-js 17's `specifiedRules`, as graphql-core 3.3 has them, `MaxIntrospectionDepthRule`
/// included.
public let specifiedRules: [ValidationRule.Type] = [
    ExecutableDefinitionsRule.self,
    KnownOperationTypesRule.self,
    UniqueOperationNamesRule.self,
    LoneAnonymousOperationRule.self,
    SingleFieldSubscriptionsRule.self,
    KnownTypeNamesRule.self,
    FragmentsOnCompositeTypesRule.self,
    VariablesAreInputTypesRule.self,
    ScalarLeafsRule.self,
    FieldsOnCorrectTypeRule.self,
    UniqueFragmentNamesRule.self,
    KnownFragmentNamesRule.self,
    NoUnusedFragmentsRule.self,
    PossibleFragmentSpreadsRule.self,
    NoFragmentCyclesRule.self,
    UniqueVariableNamesRule.self,
    NoUndefinedVariablesRule.self,
    NoUnusedVariablesRule.self,
    KnownDirectivesRule.self,
    UniqueDirectivesPerLocationRule.self,
    DeferStreamDirectiveOnRootFieldRule.self,
    DeferStreamDirectiveOnValidOperationsRule.self,
    DeferStreamDirectiveLabelRule.self,
    StreamDirectiveOnListFieldRule.self,
    KnownArgumentNamesRule.self,
    UniqueArgumentNamesRule.self,
    ValuesOfCorrectTypeRule.self,
    ProvidedRequiredArgumentsRule.self,
    VariablesInAllowedPositionRule.self,
    OverlappingFieldsCanBeMergedRule.self,
    UniqueInputFieldNamesRule.self,
    MaxIntrospectionDepthRule.self,
]

extension ValidationContext {
    /// The errors in graphql-js's order, with lines and columns from `source`.
    func finish(source: Source?) -> [GraphQLError] {
        var found = errors
        if needsSorting {
            // Stable: errors of one rule at one node keep the order they were reported in.
            found = found.enumerated().sorted { a, b in
                a.element.position != b.element.position ? a.element.position < b.element.position : a.offset < b.offset
            }.map(\.element)
        }
        var overLimit = false
        if found.count > options.maxErrors {
            found.removeLast(found.count - options.maxErrors)
            overLimit = true
        }
        let locator = found.isEmpty ? nil : source.map(SourceLocator.init)
        var result = found.map { error in
            GraphQLError(
                message: error.message,
                locations: locator.map { locator in
                    error.locations.compactMap { $0.map { locator.location(of: $0.start) } }
                } ?? [])
        }
        if let abortMessage {
            result.append(GraphQLError(message: abortMessage))
        } else if overLimit {
            result.append(GraphQLError(message: "Too many validation errors, error limit reached. Validation aborted."))
        }
        return result
    }
}

/// Lines and columns of byte offsets in a source, from an index of line starts built once, so
/// that many errors in a large document cost a binary search each.
struct SourceLocator {
    private let source: Source
    private let lineStarts: [Int]

    init(_ source: Source) {
        self.source = source
        var starts = [0]
        let body = source.body
        var index = 0
        while index < body.count {
            let byte = body[index]
            index += 1
            if byte == 0x0A {
                starts.append(index)
            } else if byte == 0x0D {
                if index < body.count && body[index] == 0x0A { index += 1 }
                starts.append(index)
            }
        }
        lineStarts = starts
    }

    func location(of offset: Int) -> SourceLocation {
        let offset = min(max(offset, 0), source.body.count)
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var column = 1
        for byte in source.body[lineStarts[low]..<offset] where byte & 0xC0 != 0x80 {
            column += byte >= 0xF0 ? 2 : 1
        }
        return SourceLocation(line: low + 1, column: column)
    }
}

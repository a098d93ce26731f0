import GraphQL

/// Whether a GraphQL document carries values of its own, written into its text by whoever sent
/// it: a string, integer or float literal (in an argument, a variable's default, a directive's
/// argument, nested in a list or an input object) or a description. A document without any
/// takes all its values from `variables`: its text is the client program's, not its user's,
/// which is what the persisted-query store may keep (``GraphQLHTTPPersistedQueries``).
///
/// Booleans, enum values and `null` do not count: they come from closed sets the schema
/// defines, as field names do. Aliases, names and comments are the program's identifiers.
enum GraphQLHTTPDocumentValues {
    /// True when `query` carries values, or does not parse as an executable document (nothing
    /// is known of it, so it is treated as carrying some).
    static func carriesValues(_ query: String) -> Bool {
        guard let document = try? parse(query) else { return true }
        return !document.definitions.allSatisfy { definition in
            switch definition {
            case .operation(let operation):
                operation.description == nil && operation.directives.allSatisfy(isBare)
                    && operation.variableDefinitions.allSatisfy { variable in
                        variable.description == nil && (variable.defaultValue.map(isBare) ?? true)
                            && variable.directives.allSatisfy(isBare)
                    }
                    && isBare(operation.selectionSet)
            case .fragment(let fragment):
                fragment.description == nil && fragment.directives.allSatisfy(isBare) && isBare(fragment.selectionSet)
            case .schema, .type, .directive, .schemaExtension, .typeExtension:
                false
            }
        }
    }

    private static func isBare(_ selectionSet: SelectionSet) -> Bool {
        selectionSet.selections.allSatisfy { selection in
            switch selection {
            case .field(let field):
                field.arguments.allSatisfy { isBare($0.value) } && field.directives.allSatisfy(isBare)
                    && (field.selectionSet.map(isBare) ?? true)
            case .fragmentSpread(let spread):
                spread.directives.allSatisfy(isBare)
            case .inlineFragment(let inline):
                inline.directives.allSatisfy(isBare) && isBare(inline.selectionSet)
            }
        }
    }

    private static func isBare(_ directive: Directive) -> Bool {
        directive.arguments.allSatisfy { isBare($0.value) }
    }

    private static func isBare(_ value: Value) -> Bool {
        switch value {
        case .string, .int, .float: false
        case .variable, .boolean, .null, .enum: true
        case .list(let list): list.values.allSatisfy(isBare)
        case .object(let object): object.fields.allSatisfy { isBare($0.value) }
        }
    }
}

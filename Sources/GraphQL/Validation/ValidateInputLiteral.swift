/// Checks a literal value in a document against the input type its position expects, without
/// variables' values (graphql-js 17's `validateInputLiteral` in its static form, which
/// `ValuesOfCorrectTypeRule` uses): variables pass here, other rules check them.
///
/// Each problem is reported with its message and the node it is about; the scalars' own literal
/// coercion (`parseLiteral`) decides what a scalar accepts, and its error message is kept.
func validateInputLiteral(
    _ value: Value, _ type: GraphQLType, hideSuggestions: Bool, report: (String, Location?) -> Void
) {
    switch type {
    case .nonNull(let inner):
        if case .null(let null) = value {
            report("Expected value of non-null type \"\(type.name)\" not to be null.", null.loc)
            return
        }
        if case .variable = value { return }
        validateInputLiteral(value, inner, hideSuggestions: hideSuggestions, report: report)
    case .list(let item):
        switch value {
        case .variable, .null: return
        case .list(let list):
            for element in list.values {
                validateInputLiteral(element, item, hideSuggestions: hideSuggestions, report: report)
            }
        default:
            validateInputLiteral(value, item, hideSuggestions: hideSuggestions, report: report)
        }
    case .named(let named):
        switch value {
        case .variable, .null: return
        default: break
        }
        switch named {
        case .inputObject(let object):
            validateInputObjectLiteral(value, object, hideSuggestions: hideSuggestions, report: report)
        case .enum(let enumType):
            do {
                _ = try enumType.parseLiteral(value, hideSuggestions: hideSuggestions)
            } catch let error as GraphQLError {
                report(error.message, value.loc)
            } catch {
                report("\(error)", value.loc)
            }
        case .scalar(let scalar):
            do {
                _ = try scalar.parseLiteral(value)
            } catch let error as GraphQLError {
                report(error.message, value.loc)
            } catch {
                report(
                    "Expected value of type \"\(scalar.name)\", but encountered error \"\(error)\"; found: \(printForError(value)).",
                    value.loc)
            }
        case .object, .interface, .union:
            return
        }
    }
}

private func validateInputObjectLiteral(
    _ value: Value, _ type: GraphQLInputObjectType, hideSuggestions: Bool, report: (String, Location?) -> Void
) {
    guard case .object(let object) = value else {
        report("Expected value of type \"\(type.name)\" to be an object, found: \(printForError(value)).", value.loc)
        return
    }
    var fieldNodes: [String: ObjectField] = [:]
    for field in object.fields { fieldNodes[field.name.value] = field }
    for field in type.fields {
        guard let node = fieldNodes[field.name] else {
            if field.isRequired {
                report(
                    "Expected value of type \"\(type.name)\" to include required field \"\(field.name)\", found: \(printForError(value)).",
                    object.loc)
            }
            continue
        }
        validateInputLiteral(node.value, field.type, hideSuggestions: hideSuggestions, report: report)
    }
    var knownFields: [ObjectField] = []
    for field in object.fields {
        if type.fields[field.name.value] == nil {
            let suggestion = hideSuggestions ? "" : didYouMean(suggestionList(field.name.value, type.fields.names))
            report(
                "Expected value of type \"\(type.name)\" not to include unknown field \"\(field.name.value)\""
                    + (suggestion.isEmpty ? ", found" : ".\(suggestion) Found") + ": \(printForError(value)).",
                field.loc)
        } else {
            knownFields.append(field)
        }
    }
    if type.isOneOf {
        let message =
            "Within OneOf Input Object type \"\(type.name)\", exactly one field must be specified, and the value for that field must be non-null."
        if knownFields.count != 1 {
            report(message, object.loc)
        } else if case .null = knownFields[0].value {
            report(message, object.loc)
        }
    }
}

extension Value {
    var loc: Location? {
        switch self {
        case .variable(let node): node.loc
        case .int(let node): node.loc
        case .float(let node): node.loc
        case .string(let node): node.loc
        case .boolean(let node): node.loc
        case .null(let node): node.loc
        case .enum(let node): node.loc
        case .list(let node): node.loc
        case .object(let node): node.loc
        }
    }
}

/// Limit: at most `ValidationLimits.maxDirectivesPerLocation` directives on one node, so that a
/// directive repeated many times (even a repeatable one) is refused.
public final class MaxDirectivesRule: ValidationRule {
    override public var events: ValidationEvents { [.enterDirectives] }

    override public func enterDirectives(_ nodes: [Directive], owner: DirectiveOwner) {
        let limit = context.options.limits.maxDirectivesPerLocation ?? Int.max
        if nodes.count > limit {
            context.report(
                "\(nodes.count) directives are applied here, more than the maximum of \(limit).", [nodes[limit].loc])
        }
    }
}

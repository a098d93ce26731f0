import GraphQL
import StorykeepCore

extension AccountsModule {
    /// Passkeys (Schema/passkeys.graphql): a person's own, and logging in with one.
    func registerPasskeys(_ module: inout ModuleRegistry) {
        module.query("passkeys", access: .authenticated) { _, context in
            let viewer = try context.requireViewer()
            return try await context.transaction { tx in try await Passkeys.list(personID: viewer.personID, in: tx) }
        }
        module.mutation("beginPasskeyRegistration", access: .authenticated) { _, context in
            try await Passkeys.beginRegistration(context: context)
        }
        module.mutation("finishPasskeyRegistration", access: .authenticated) { arguments, context in
            try await Passkeys.finishRegistration(
                credential: arguments["credential"]?.stringValue ?? "", name: arguments["name"]?.stringValue, context: context)
        }
        module.mutation("renamePasskey", access: .authenticated) { arguments, context in
            try await Passkeys.rename(id: try arguments.id("id"), name: arguments["name"]?.stringValue ?? "", context: context)
        }
        module.mutation("removePasskey", access: .authenticated) { arguments, context in
            try await Passkeys.remove(id: try arguments.id("id"), context: context)
        }
        module.mutation("beginPasskeyLogin", access: .anyone) { arguments, context in
            try await PasskeyLogin.begin(username: arguments["username"]?.stringValue, context: context)
        }
        // Failures count against the client's address (`rateLimits.failedLoginsPerMinute`), as `login`'s.
        module.mutation("finishPasskeyLogin", access: .anyone, ownTransactions: true) { arguments, context in
            try await RequestLimits.countingFailedLogins {
                try await PasskeyLogin.finish(assertion: arguments["assertion"]?.stringValue ?? "", context: context)
            }
        }
    }
}

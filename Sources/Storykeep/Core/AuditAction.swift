/// Every action the audit trail records (`audit_events.action`), `<thing>.<verb>`, in one list.
/// Schema/audit.graphql's description of `AuditEvent.action` names each with what its row's
/// subject person and subject are; `AuditActionTests` holds the two to the same list.
public enum AuditAction: String, CaseIterable, Sendable {
    // Logins: the person whose name was typed (none when it is nobody's).
    case loginSucceeded = "login.succeeded"
    case loginFailed = "login.failed"
    // Passkeys (accounts): added or removed by their person; a clone seen at a login.
    case passkeyRegistered = "passkey.registered"
    case passkeyRemoved = "passkey.removed"
    case passkeyCloned = "passkey.cloned"
    // A person's own first password (an onboarding code), or a new one with a reset's code.
    case accountActivated = "account.activated"
    case passwordResetCompleted = "passwordReset.completed"
    // People, by an agency admin or the tenant's operator (`storykeep user create`).
    case personCreated = "person.created"
    case personDisabled = "person.disabled"
    case activationCodeIssued = "activationCode.issued"
    case passwordResetRequested = "passwordReset.requested"
    case passwordResetApproved = "passwordReset.approved"
    case passwordResetRefused = "passwordReset.refused"
    // The caseload.
    case assignmentStarted = "assignment.started"
    case assignmentEnded = "assignment.ended"
    // Case-management clients.
    case cmsClientCreated = "cmsClient.created"
    case cmsClientRotated = "cmsClient.rotated"
    case cmsClientRevoked = "cmsClient.revoked"
    // The tenant itself, by its operator at the command line (`storykeep tenant apply|disable|enable`).
    case tenantCreated = "tenant.created"
    case tenantUpdated = "tenant.updated"
    case tenantDisabled = "tenant.disabled"
    case tenantEnabled = "tenant.enabled"
    // Reads of shared entries, and a client's pulls.
    case shareRead = "share.read"
    case exportDelivered = "export.delivered"
    case exportWithdrawn = "export.withdrawn"
    // The GDPR rights: a person's data exported (by them, an admin or the operator), a person
    // erased (written by privacy_erase_person, Migrations/0031_privacy_erasure.sql).
    case privacyExported = "privacy.exported"
    case privacyErased = "privacy.erased"
}

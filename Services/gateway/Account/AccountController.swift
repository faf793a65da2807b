import Foundation
import Hummingbird
import KiwiInternalAPI
import KiwiModels
import KiwiServiceSupport
import Logging

/// The signed-in user's own things: `GET /v1/quota`, `DELETE /v1/account`, `DELETE /v1/auth/session`.
struct AccountController: Sendable {
    let ledger: any ScanLedger
    let recipes: any SavedRecipeStore
    let profiles: any ProfileStore
    let pantry: any PantryStore
    let shoppingList: any ShoppingListStore
    let households: any HouseholdStore
    let plans: any MealPlanStore
    let devices: any DeviceStore
    let policy: QuotaPolicy
    let accounts: any AccountActions
    let cache: SessionCache

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.get("quota", use: quotaInfo)
        group.delete("account", use: deleteAccount)
        group.delete("auth/session", use: signOut)
    }

    @Sendable func quotaInfo(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let now = Date()
        let usage = try await ledger.usage(of: session.quotaKey, on: policy.day(of: now))
        return try Response.json(QuotaInfo(remaining: policy.remaining(after: usage), limit: policy.limit, resetsAt: policy.resetsAt(after: now)))
    }

    /// Deletes the user's devices (first: no phone hears of a scan of an account that is going), scans and profile,
    /// takes them out of their household (with their notes; the household's kitchen stays with its other members) and
    /// deletes their own kitchen (the gateway owns all of these), then the user and their sessions (the auth service
    /// owns them); every gateway forgets the sessions through the revocation broadcast, this one at once. The day's
    /// charges stay until the day ends: they are kept by person, not account, so that signing up again does not reset
    /// them.
    @Sendable func deleteAccount(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        try await devices.removeAll(of: session.userID)
        try await ledger.deleteScans(of: session.userID, quotaKey: session.quotaKey, today: policy.day(of: Date()))
        try await profiles.delete(of: session.userID)
        _ = try await households.leave(session.userID)
        let ownKitchen = Kitchen.own(session.userID)
        try await recipes.deleteAll(of: ownKitchen)
        try await pantry.deleteAll(of: ownKitchen)
        try await shoppingList.deleteAll(of: ownKitchen)
        try await plans.deleteAll(of: ownKitchen)
        do {
            try await accounts.deleteUser(session.userID, requestID: context.requestID)
        } catch {
            throw error.answer(Self.unavailableMessage, logging: "the auth service failed", logger: context.logger)
        }
        cache.apply(.user(session.userID))
        // A registration that was on its way while the account went.
        try await devices.removeAll(of: session.userID)
        context.logger.info("account deleted")
        return try Response.json(AccountDeletionResponse(deleted: true))
    }

    /// Signs out: removes the devices this session registered, so that the phone stops hearing of the person's scans,
    /// then revokes this request's token. The devices go first: a sign-out that fails half-way leaves a session that
    /// still works, never a phone that hears of scans after it signed out.
    @Sendable func signOut(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        guard let token = context.bearerToken else { throw APIError.unauthorized() }
        try await devices.removeAll(ofSession: session.tokenHash)
        do {
            try await accounts.revoke(token, requestID: context.requestID)
        } catch {
            throw error.answer(Self.unavailableMessage, logging: "the auth service failed", logger: context.logger)
        }
        cache.apply(.session(tokenHash: session.tokenHash))
        // A registration that was on its way while the session signed out.
        try await devices.removeAll(ofSession: session.tokenHash)
        return Response(status: .noContent)
    }

    private static let unavailableMessage = "Account changes are unavailable right now; please try again shortly."
}

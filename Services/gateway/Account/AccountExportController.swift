import Foundation
import HTTPTypes
import Hummingbird
import KiwiModels
import KiwiServiceSupport
import Logging
import NIOCore

/// `GET /v1/account/export` (docs/architecture.md, "Account export"): everything Kiwi keeps of the person, as one JSON
/// document (``AccountExport``), for their right of access and to move their data elsewhere. What is small is read
/// before the answer starts, so that an outage is a clean 503; the recipe box and the scans are then streamed a page
/// at a time, so that a large box is never held whole. A failure past that point cuts the answer short: its JSON is
/// unfinished, and the client asks again.
struct AccountExportController: Sendable {
    let accounts: any AccountActions
    let profiles: any ProfileStore
    let devices: any DeviceStore
    let households: any HouseholdStore
    let pantry: any PantryStore
    let shoppingList: any ShoppingListStore
    let plans: any MealPlanStore
    let planPresenter: MealPlanPresenter
    let recipes: any SavedRecipeStore
    let ledger: any ScanLedger
    /// How many exports one person may ask for in a burst, and then per second.
    let limiter: ClientRateLimiter
    /// The base of the share links (`PUBLIC_BASE_URL`).
    let publicBaseURL: URL

    /// How many recipes, and scans, are read and written at a time.
    static let pageSize = 100

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.get("account/export", use: export)
    }

    @Sendable func export(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        // A HEAD learns the headers, and spends neither an export nor the reads.
        guard request.method != .head else { return Response(status: .ok, headers: Self.headers) }
        try limiter.admit("export \(session.userID)") { wait in "Exports are limited to a few an hour; try again in \(wait) s." }
        let kitchen = try await households.kitchen(of: session.userID)
        let opening = try await opening(of: session.userID, kitchen: kitchen, requestID: context.requestID, logger: context.logger)
        let shares = try await recipes.shares(of: kitchen)
        let body = ResponseBody { [self] writer in
            do {
                try await writer.write(opening)
                let recipeCount = try await writeRecipes(of: kitchen, shares: shares, to: &writer)
                try await writer.write(ByteBuffer(string: "]},\(Self.key(AccountExport.CodingKeys.scans)):["))
                let scanCount = try await writeScans(of: session.userID, to: &writer)
                try await writer.write(ByteBuffer(string: "]}"))
                try await writer.finish(nil)
                context.logger.info("account exported", metadata: ["recipes": "\(recipeCount)", "scans": "\(scanCount)"])
            } catch {
                context.logger.error("account export cut short", metadata: ["reason": "\(error)"])
                throw error
            }
        }
        return Response(status: .ok, headers: Self.headers, body: body)
    }

    private static let headers: HTTPFields = [
        .contentType: "application/json; charset=utf-8",
        .contentDisposition: #"attachment; filename="kiwi-export.json""#,
        .cacheControl: "no-store",
    ]

    /// The document up to the recipe box's opening bracket: every member read before the answer starts.
    private func opening(of userID: UUID, kitchen: Kitchen, requestID: String, logger: Logger) async throws -> ByteBuffer {
        let account: UserAccount?
        do throws(AuthServiceUnavailable) {
            account = try await accounts.account(userID, requestID: requestID)
        } catch {
            throw error.answer("The export is unavailable right now; please try again shortly.", logging: "the auth service failed", logger: logger)
        }
        // The session was live a moment ago: the account was deleted meanwhile.
        guard let account else { throw APIError.unauthorized() }
        let household = try await households.household(of: userID)
        var shownPlans: [MealPlan] = []
        var planRecipes: [ExportedPlanRecipe] = []
        for plan in try await plans.plans(of: kitchen, overlapping: Self.allDays, limit: .max) {
            shownPlans.append(try await planPresenter.shown(plan, of: kitchen))
            planRecipes += try await plans.mealRecipes(of: plan.id).filter(\.isWritten).map { written in
                ExportedPlanRecipe(
                    planId: plan.id,
                    mealId: written.mealID,
                    scanId: written.scanID,
                    recipe: written.recipe,
                    withheldReason: written.withheldReason
                )
            }
        }
        let prices = try await pantry.prices(of: kitchen).sorted { $0.key < $1.key }.map { ExportedPrice(food: $0.key, price: $0.value) }
        typealias Member = AccountExport.CodingKeys
        typealias KitchenMember = ExportedKitchen.CodingKeys
        let members: [String] = [
            try Self.member(Member.exportedAt, Date()),
            try Self.member(Member.account, account),
            try Self.member(Member.profile, try await profiles.profile(of: userID)),
            try Self.member(Member.devices, try await devices.devices(of: userID, at: Date())),
            try Self.member(Member.household, household.flatMap { Self.exported($0, for: userID) }),
        ]
        let kitchenMembers: [String] = [
            try Self.member(KitchenMember.shared, household != nil),
            try Self.member(KitchenMember.pantry, try await pantry.allItems(of: kitchen)),
            try Self.member(KitchenMember.prices, prices),
            try Self.member(KitchenMember.shoppingList, try await shoppingList.items(of: kitchen)),
            try Self.member(KitchenMember.plans, shownPlans),
            try Self.member(KitchenMember.planRecipes, planRecipes),
        ]
        let text =
            "{" + members.joined(separator: ",") + ",\(Self.key(Member.kitchen)):{" + kitchenMembers.joined(separator: ",")
            + ",\(Self.key(KitchenMember.recipes)):["
        return ByteBuffer(string: text)
    }

    /// Writes the kitchen's recipes, a page at a time, comma-separated; how many.
    private func writeRecipes(of kitchen: Kitchen, shares: [UUID: RecipeShare], to writer: inout any ResponseBodyWriter) async throws -> Int {
        var (cursor, written): (PageCursor?, Int) = (nil, 0)
        repeat {
            let page = try await recipes.recipes(of: kitchen, matching: nil, after: cursor, limit: Self.pageSize)
            let exported = page.recipes.map { ExportedRecipe(recipe: $0, share: shares[$0.id].map { $0.link(at: publicBaseURL) }) }
            try await writer.write(try Self.elements(exported, after: written))
            written += exported.count
            cursor = page.next
        } while cursor != nil
        return written
    }

    /// Writes the person's scans still retained, of every mode, a page at a time, comma-separated; how many.
    private func writeScans(of userID: UUID, to writer: inout any ResponseBodyWriter) async throws -> Int {
        var (cursor, written): (PageCursor?, Int) = (nil, 0)
        repeat {
            let page = try await ledger.scans(of: userID, modes: ScanMode.allCases, after: cursor, limit: Self.pageSize)
            try await writer.write(try Self.elements(page.scans.map(\.resource.withoutTableProfile), after: written))
            written += page.scans.count
            cursor = page.next
        } while cursor != nil
        return written
    }

    /// `values` as the next elements of an array that has `written` already.
    private static func elements(_ values: [some Encodable], after written: Int) throws -> ByteBuffer {
        let encoder = KiwiJSON.encoder()
        var buffer = ByteBuffer()
        for (index, value) in values.enumerated() {
            if written + index > 0 { buffer.writeString(",") }
            buffer.writeBytes(try encoder.encode(value))
        }
        return buffer
    }

    private static func key(_ key: some CodingKey) -> String { "\"\(key.stringValue)\"" }

    /// `"key":value`, `null` for nil.
    private static func member(_ key: some CodingKey, _ value: (some Encodable)?) throws -> String {
        guard let value else { return "\(Self.key(key)):null" }
        return "\(Self.key(key)):" + String(decoding: try KiwiJSON.encoder().encode(value), as: UTF8.self)
    }

    /// The household `userID` is a member of; nil when they left it between the reads.
    private static func exported(_ household: HouseholdRecord, for userID: UUID) -> ExportedHousehold? {
        guard let you = household.member(userID) else { return nil }
        return ExportedHousehold(
            id: household.id,
            name: household.name,
            createdAt: household.createdAt,
            yourMemberId: you.id,
            members: household.members.enumerated().map { index, member in
                ExportedMember(id: member.id, displayName: member.displayName, joinedAt: member.joinedAt, manages: index == 0)
            }
        )
    }

    /// Every day a plan can have.
    private static let allDays = CalendarDay(daysSince1970: 0)...CalendarDay(daysSince1970: 1_000_000)
}

extension ScanResource {
    /// The scan as exported: without the profile its answer was made for, nor the members each withheld recipe was
    /// withheld for. A household member's scan is made for the whole table, so these are the other members' allergies
    /// and diets, theirs to export; the person's own profile is the export's.
    var withoutTableProfile: ScanResource {
        var scan = self
        scan.result?.appliedProfile = nil
        if let withheld = scan.result?.withheldRecipes {
            scan.result?.withheldRecipes = withheld.map { recipe in
                var recipe = recipe
                recipe.`for` = nil
                return recipe
            }
        }
        return scan
    }
}

extension RecipeShare {
    /// The share's public link under `base` (`PUBLIC_BASE_URL`), as the API shows it.
    func link(at base: URL) -> RecipeShareLink {
        RecipeShareLink(url: base.appending(path: "r/\(token)"), sharedAt: sharedAt)
    }
}

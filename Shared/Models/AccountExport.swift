import Foundation

/// `GET /v1/account/export`: everything Kiwi keeps of a person, which deleting the account deletes, and what of their
/// household's kitchen they can see (``ExportedKitchen/shared``). The gateway streams it, member by member in the order
/// of ``CodingKeys``, so that a large recipe box or many scans are never held whole.
public struct AccountExport: Codable, Hashable, Sendable {
    public var exportedAt: Date
    public var account: UserAccount
    /// Nil when the person never set one.
    public var profile: KitchenProfile?
    /// Tokens shown by their ending only.
    public var devices: [Device]
    /// Nil when the person is in no household.
    public var household: ExportedHousehold?
    public var kitchen: ExportedKitchen
    /// The scans still retained, newest first, with their answers.
    public var scans: [ScanResource]

    /// The members, in the order they are written.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case exportedAt, account, profile, devices, household, kitchen, scans
    }

    public init(
        exportedAt: Date,
        account: UserAccount,
        profile: KitchenProfile?,
        devices: [Device],
        household: ExportedHousehold?,
        kitchen: ExportedKitchen,
        scans: [ScanResource]
    ) {
        self.exportedAt = exportedAt
        self.account = account
        self.profile = profile
        self.devices = devices
        self.household = household
        self.kitchen = kitchen
        self.scans = scans
    }
}

/// What the auth service keeps of a person: everything deleting the account deletes there. Session tokens are kept as
/// hashes only, and not shown.
public struct UserAccount: Codable, Hashable, Sendable {
    public var userId: UUID
    /// Apple's stable id of the person (`sub`), as Sign in with Apple gave it.
    public var appleUserId: String
    /// The email Apple shared (often a relay address); nil when it shared none.
    public var email: String?
    public var createdAt: Date
    /// The sessions that have not expired, newest first.
    public var sessions: [SessionPeriod]

    public init(userId: UUID, appleUserId: String, email: String?, createdAt: Date, sessions: [SessionPeriod]) {
        self.userId = userId
        self.appleUserId = appleUserId
        self.email = email
        self.createdAt = createdAt
        self.sessions = sessions
    }

    private enum CodingKeys: String, CodingKey {
        case userId, appleUserId, email, createdAt, sessions
    }

    /// Writes `email` as `null` when there is none: the document lists every member.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userId, forKey: .userId)
        try container.encode(appleUserId, forKey: .appleUserId)
        try container.encode(email, forKey: .email)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(sessions, forKey: .sessions)
    }
}

/// When a session began and when it ends.
public struct SessionPeriod: Codable, Hashable, Sendable {
    public var createdAt: Date
    public var expiresAt: Date

    public init(createdAt: Date, expiresAt: Date) {
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// The household the person is in, shared with its members: the other members by the names they chose only, since
/// their allergies and diets are theirs to export.
public struct ExportedHousehold: Codable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var createdAt: Date
    public var yourMemberId: UUID
    public var members: [ExportedMember]

    public init(id: UUID, name: String, createdAt: Date, yourMemberId: UUID, members: [ExportedMember]) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.yourMemberId = yourMemberId
        self.members = members
    }
}

/// A member of the person's household.
public struct ExportedMember: Codable, Hashable, Sendable {
    public var id: UUID
    public var displayName: String
    public var joinedAt: Date
    public var manages: Bool

    public init(id: UUID, displayName: String, joinedAt: Date, manages: Bool) {
        self.id = id
        self.displayName = displayName
        self.joinedAt = joinedAt
        self.manages = manages
    }
}

/// The kitchen the person cooks from: their own, or their household's, shared with its members.
public struct ExportedKitchen: Codable, Hashable, Sendable {
    /// True when the kitchen is the household's: its food, lists, plans and recipes stay with the household when the
    /// person's account goes, and only their notes and ratings go with it.
    public var shared: Bool
    public var pantry: [PantryItem]
    /// The last price paid for each food bought on a receipt added to the pantry.
    public var prices: [ExportedPrice]
    public var shoppingList: [ShoppingListItem]
    public var plans: [MealPlan]
    /// The recipes written for the plans' meals, as written: a meal's full recipe outlives its scan.
    public var planRecipes: [ExportedPlanRecipe]
    /// The recipe box, newest first, with the person's note and rating and each share link.
    public var recipes: [ExportedRecipe]

    /// The members, in the order they are written.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case shared, pantry, prices, shoppingList, plans, planRecipes, recipes
    }

    public init(
        shared: Bool,
        pantry: [PantryItem],
        prices: [ExportedPrice],
        shoppingList: [ShoppingListItem],
        plans: [MealPlan],
        planRecipes: [ExportedPlanRecipe],
        recipes: [ExportedRecipe]
    ) {
        self.shared = shared
        self.pantry = pantry
        self.prices = prices
        self.shoppingList = shoppingList
        self.plans = plans
        self.planRecipes = planRecipes
        self.recipes = recipes
    }
}

/// A recipe written for a plan's meal: the recipe, or why the guard withheld what was written.
public struct ExportedPlanRecipe: Codable, Hashable, Sendable {
    public var planId: UUID
    public var mealId: UUID
    /// The scan that wrote it.
    public var scanId: UUID
    public var recipe: Recipe?
    public var withheldReason: String?

    public init(planId: UUID, mealId: UUID, scanId: UUID, recipe: Recipe?, withheldReason: String?) {
        self.planId = planId
        self.mealId = mealId
        self.scanId = scanId
        self.recipe = recipe
        self.withheldReason = withheldReason
    }
}

/// The kitchen's last price of one food.
public struct ExportedPrice: Codable, Hashable, Sendable {
    /// The food's key, as the pantry matches it.
    public var food: String
    public var amount: Double
    public var unit: QuantityUnit
    public var currency: String

    public init(food: String, price: PantryPrice) {
        self.food = food
        amount = price.amount
        unit = price.unit
        currency = price.currency
    }
}

/// A saved recipe as kept, with the person's note and rating, and its share link when it has one: `conflicts` is
/// empty, as it is worked out against the profile when a recipe is read.
public struct ExportedRecipe: Codable, Hashable, Sendable {
    public var recipe: SavedRecipe
    public var share: RecipeShareLink?

    public init(recipe: SavedRecipe, share: RecipeShareLink?) {
        self.recipe = recipe
        self.share = share
    }

    private enum CodingKeys: String, CodingKey {
        case share
    }

    /// The saved recipe's members, and `share`.
    public init(from decoder: any Decoder) throws {
        recipe = try SavedRecipe(from: decoder)
        share = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(RecipeShareLink.self, forKey: .share)
    }

    /// The saved recipe's members, and `share` (`null` when it is not shared).
    public func encode(to encoder: any Encoder) throws {
        try recipe.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(share, forKey: .share)
    }
}

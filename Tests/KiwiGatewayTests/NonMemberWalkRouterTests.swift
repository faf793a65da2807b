import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiAPIDocument
import KiwiModels
import NIOCore
import Testing

@testable import KiwiGateway

/// Authorization that cannot be got wrong (docs/architecture.md, "Households"): every operation of `openapi.yaml` that
/// names a household's resource is walked by a person of another household with that household's ids, and must answer
/// 404, as for an id that never was, so that ids tell nothing. An operation added to the description must be walked
/// here or exempted, with its reason, or this fails.
@Suite("Gateway router: a non-member walks every operation with another household's ids")
struct NonMemberWalkRouterTests {
    /// A request of the walk: a JSON one, or a photo scan (multipart) to `path`.
    enum Step {
        case json(HTTPRequest.Method, String, body: String? = nil)
        case scan(String)
    }

    /// The operations that take no id of anyone else's, each with why: they act on the caller's own data, or on none.
    static let exempt: [String: String] = [
        "getHealth": "public, no data", "getReadiness": "public, no data", "getOpenAPIYAML": "public, no data",
        "getOpenAPIJSON": "public, no data", "signInWithApple": "signs the caller in",
        "getSharedRecipePage": "public by design: a share's 256-bit token, not an id, opens only the recipe",
        "listScans": "the caller's own", "listRecipes": "the caller's kitchen's", "listPantry": "the caller's kitchen's",
        "clearPantry": "the caller's kitchen's", "getShoppingList": "the caller's kitchen's",
        "clearShoppingList": "the caller's kitchen's", "streamShoppingList": "the caller's kitchen's",
        "moveCheckedToPantry": "the caller's kitchen's", "getQuota": "the caller's own", "getProfile": "the caller's own",
        "putProfile": "the caller's own", "getHousehold": "the caller's own household",
        "createHousehold": "makes the caller's own", "inviteToHousehold": "to the caller's own household",
        "deleteAccount": "the caller's own", "signOut": "the caller's own session", "listPlans": "the caller's kitchen's",
        "getPlanCalendar": "public by design: a feed's 256-bit token, not an id, opens only the plan's calendar",
        "exportAccount": "the caller's own, and their kitchen's",
        "registerDevice": "the caller's phone's own token; registered by another person, it moves to them (DevicesRouterTests)",
        "removeDevice": "a token, not an id: another person's is 404 (DevicesRouterTests)",
    ]

    /// Every operation id of the API description.
    static func operationIDs() throws -> Set<String> {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(APIDocument.json)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        return Set(paths.values.flatMap { $0.values.compactMap { ($0 as? [String: Any])?["operationId"] as? String } })
    }

    @Test("every operation is walked or exempted, and nothing is both or names an operation that is gone")
    func everyOperationIsAccountedFor() throws {
        let walked = Set(Self.walk(scan: UUID(), recipe: UUID(), pantryItem: UUID(), listItem: UUID(), member: UUID()).keys)
        let exempt = Set(Self.exempt.keys)
        #expect(walked.isDisjoint(with: exempt))
        #expect(try Self.operationIDs() == walked.union(exempt), "walked or exempted, and nothing else")
    }

    /// Each walked operation's request, with the household's ids.
    static func walk(scan: UUID, recipe: UUID, pantryItem: UUID, listItem: UUID, member: UUID) -> [String: Step] {
        let (scan, recipe, pantryItem, listItem, member) = (
            scan.uuidString.lowercased(), recipe.uuidString.lowercased(), pantryItem.uuidString.lowercased(),
            listItem.uuidString.lowercased(), member.uuidString.lowercased()
        )
        return [
            "scanFridge": .scan("/v1/scan?for=\(member)"),
            "createScan": .scan("/v1/scans?for=\(member)"),
            "getScan": .json(.get, "/v1/scans/\(scan)"),
            "deleteScan": .json(.delete, "/v1/scans/\(scan)"),
            "streamScanEvents": .json(.get, "/v1/scans/\(scan)/events"),
            "refineScan": .json(.post, "/v1/scans/\(scan)/refinements", body: #"{"ingredients": ["leeks"]}"#),
            "correctReceiptLine": .json(.patch, "/v1/scans/\(scan)/receipt/lines/\(scan)", body: #"{"quantity": 2}"#),
            "saveRecipe": .json(.post, "/v1/recipes", body: #"{"scanId": "\#(scan)", "recipeId": "\#(recipe)"}"#),
            "getRecipe": .json(.get, "/v1/recipes/\(recipe)"),
            "updateRecipe": .json(.patch, "/v1/recipes/\(recipe)", body: #"{"note": "mine now"}"#),
            "deleteRecipe": .json(.delete, "/v1/recipes/\(recipe)"),
            "shareRecipe": .json(.post, "/v1/recipes/\(recipe)/share"),
            "unshareRecipe": .json(.delete, "/v1/recipes/\(recipe)/share"),
            "addToPantry": .json(.post, "/v1/pantry/items", body: #"{"scanId": "\#(scan)"}"#),
            "getPantryItem": .json(.get, "/v1/pantry/items/\(pantryItem)"),
            "updatePantryItem": .json(.patch, "/v1/pantry/items/\(pantryItem)", body: #"{"name": "Kale"}"#),
            "deletePantryItem": .json(.delete, "/v1/pantry/items/\(pantryItem)"),
            "addToShoppingList": .json(.post, "/v1/shopping-list/items", body: #"{"recipeId": "\#(recipe)"}"#),
            "updateShoppingListItem": .json(.patch, "/v1/shopping-list/items/\(listItem)", body: #"{"checked": true}"#),
            "deleteShoppingListItem": .json(.delete, "/v1/shopping-list/items/\(listItem)"),
            "joinHousehold": .json(
                .post,
                "/v1/household/members",
                body: #"{"code": "\#(InvitationCode.make().code)", "displayName": "Kim", "shareProfile": true}"#
            ),
            "removeHouseholdMember": .json(.delete, "/v1/household/members/\(member)"),
            "createPlan": .json(.post, "/v1/plans?for=\(member)", body: "{}"),
            // A plan's id is its scan's.
            "getPlan": .json(.get, "/v1/plans/\(scan)"),
            "changePlanMeal": .json(.patch, "/v1/plans/\(scan)/meals/\(scan)", body: #"{"meal": "lunch"}"#),
            "removePlanMeal": .json(.delete, "/v1/plans/\(scan)/meals/\(scan)"),
            "getPlanMealRecipe": .json(.get, "/v1/plans/\(scan)/meals/\(scan)"),
            "writePlanRecipes": .json(.post, "/v1/plans/\(scan)/recipes"),
            "replacePlanMeal": .json(.post, "/v1/plans/\(scan)/meals/\(scan)/replacement"),
            "addPlanToShoppingList": .json(.post, "/v1/plans/\(scan)/shopping-list"),
            "makePlanCalendar": .json(.post, "/v1/plans/\(scan)/calendar"),
            "revokePlanCalendar": .json(.delete, "/v1/plans/\(scan)/calendar"),
        ]
    }

    @Test("a person of another household gets 404 for every walked operation, and the household's data is as it was")
    func nonMemberGets404Everywhere() async throws {
        let gateway = FakeGateway()
        let (sam, alex) = (try await HouseholdRouterTests.person(gateway), try await HouseholdRouterTests.person(gateway))
        let kim = try await HouseholdRouterTests.person(gateway)
        try await gateway.test { client async throws in
            let household = try await HouseholdRouterTests.twoPeople(client, sam, alex)
            #expect(try await HouseholdRouterTests.create(client, kim, name: "Elsewhere", as: "Kim").status == .created)
            let kitchen = try await gateway.households.kitchen(of: sam.userID)
            let started = try await client.scan(testPhoto, token: sam.token, path: "/v1/scans")
            let scan = try KiwiJSON.decoder().decode(ScanResource.self, from: Data(started.body.readableBytesView))
            let eggs = SharedKitchenStoreTests.pantryItem("Eggs")
            _ = try await gateway.pantry.add([eggs], for: kitchen, capacity: PantryController.capacity)
            let milk = ShoppingListStoreTests.item("Milk")
            _ = try await gateway.shoppingList.add([milk], for: kitchen, capacity: ShoppingListController.capacity)
            try await gateway.plans.create(MealPlanStoreTests.plan(from: "2026-06-15", days: 2, id: scan.id), for: kitchen)
            guard case .saved(let recipe) = try await gateway.recipes.save(SavedRecipeStoreTests().copy(), for: kitchen, capacity: 10) else {
                throw KitchenTestFailure()
            }

            let steps = Self.walk(scan: scan.id, recipe: recipe.id, pantryItem: eggs.id, listItem: milk.id, member: household.yourMemberId)
            for (operation, step) in steps.sorted(by: { $0.key < $1.key }) {
                let answer: TestResponse
                switch step {
                case .json(let method, let path, let body):
                    answer = try await client.execute(method, path, token: kim.token, body: body.map { ByteBuffer(string: $0) })
                case .scan(let path):
                    answer = try await client.scan(testPhoto, token: kim.token, path: path)
                }
                #expect(answer.status == .notFound, "\(operation): \(answer.status) \(String(buffer: answer.body))")
            }

            #expect(try await gateway.pantry.allItems(of: kitchen) == [eggs])
            #expect(try await gateway.shoppingList.items(of: kitchen) == [milk])
            let kept = try await gateway.recipes.recipe(recipe.id, of: kitchen)
            #expect(kept != nil && kept?.note == nil)
            #expect(try await gateway.households.household(of: alex.userID)?.id == household.id)
            // The ids are live: a member reaches what the outsider could not.
            #expect(try await client.execute(.get, "/v1/scans/\(scan.id)", token: sam.token).status == .ok)
            #expect(try await client.execute(.get, "/v1/pantry/items/\(eggs.id)", token: alex.token).status == .ok)
            #expect(try await client.execute(.get, "/v1/recipes/\(recipe.id)", token: alex.token).status == .ok)
            #expect(try await client.execute(.get, "/v1/plans/\(scan.id)", token: alex.token).status == .ok)
        }
    }
}

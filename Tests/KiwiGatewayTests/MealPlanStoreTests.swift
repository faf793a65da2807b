import Foundation
import KiwiModels
import Testing

@testable import KiwiGateway

/// The meal plan store, each case against ``FakeMealPlanStore`` and against ``PostgresMealPlanStore`` on a migrated
/// database of its own.
@Suite("Meal plan store, fake and PostgreSQL")
struct MealPlanStoreTests {
    static let stores = PortImplementations<any MealPlanStore>(
        fake: { FakeMealPlanStore() },
        postgres: { PostgresMealPlanStore(client: $0, logger: testLogger, timeout: .seconds(60)) }
    )

    /// A plan of `days` days from `from`, asked for at a whole second, which both stores keep exactly.
    static func plan(from: String, days: Int, id: UUID = UUID(), createdAt: Date = Date(timeIntervalSince1970: 1_790_000_000)) -> MealPlanRecord {
        MealPlanRecord(
            id: id,
            createdBy: UUID(),
            request: PlanRequest(from: CalendarDay(from)!, days: days, meals: [.dinner, .lunch], servings: 3),
            pantryWasEmpty: true,
            createdAt: createdAt
        )
    }

    @Test("a kept plan reads back exactly, only in its kitchen; keeping it again changes nothing", arguments: StoreKind.allCases)
    func keptPlanReadsBack(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let kitchen = Kitchen.own(UUID())
            let plan = Self.plan(from: "2026-11-30", days: 7)
            try await store.create(plan, for: kitchen)
            var again = plan
            again.pantryWasEmpty = false
            try await store.create(again, for: kitchen)
            #expect(try await store.plan(plan.id, of: kitchen) == plan)
            #expect(try await store.plan(plan.id, of: Kitchen.own(UUID())) == nil)
        }
    }

    @Test("the plans with a day in a range come earliest first, those outside it left out", arguments: StoreKind.allCases)
    func plansOverlappingARange(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let kitchen = Kitchen.own(UUID())
            let before = Self.plan(from: "2026-11-20", days: 3)  // 20 to 22 November
            let ending = Self.plan(from: "2026-11-25", days: 6)  // 25 to 30 November
            let inside = Self.plan(from: "2026-12-02", days: 1)
            let after = Self.plan(from: "2026-12-08", days: 2)
            for plan in [after, inside, before, ending] { try await store.create(plan, for: kitchen) }
            let range = CalendarDay("2026-11-30")!...CalendarDay("2026-12-07")!
            #expect(try await store.plans(of: kitchen, overlapping: range, limit: 10).map(\.id) == [ending.id, inside.id])
            #expect(try await store.plans(of: kitchen, overlapping: range, limit: 1).map(\.id) == [ending.id])
        }
    }

    @Test("deleting a kitchen's plans leaves every other kitchen's", arguments: StoreKind.allCases)
    func deleteAllIsPerKitchen(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let (mine, theirs) = (Kitchen.own(UUID()), Kitchen.own(UUID()))
            let (plan, other) = (Self.plan(from: "2026-11-30", days: 2), Self.plan(from: "2026-11-30", days: 2))
            try await store.create(plan, for: mine)
            try await store.create(other, for: theirs)
            try await store.deleteAll(of: mine)
            #expect(try await store.plan(plan.id, of: mine) == nil)
            #expect(try await store.plan(other.id, of: theirs) == other)
        }
    }

    @Test("edits of one plan at once all land, each seeing the one before", arguments: StoreKind.allCases)
    func editsAtOnceAllLand(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let kitchen = Kitchen.own(UUID())
            let plan = Self.plan(from: "2026-11-30", days: 7)
            try await store.create(plan, for: kitchen)
            let meals = plan.request.slots.map { slot in
                PlannedMeal(id: UUID(), date: plan.request.date(of: slot), meal: slot.meal, outline: nil, emptyReason: "empty")
            }
            _ = try await store.editSchedule(of: plan.id, in: kitchen) { _ in meals }
            try await withThrowingTaskGroup { group in
                for index in meals.indices {
                    group.addTask {
                        _ = try await store.editSchedule(of: plan.id, in: kitchen) { plan in
                            var schedule = plan.schedule ?? []
                            schedule[index].emptyReason = "edit \(index)"
                            return schedule
                        }
                    }
                }
                try await group.waitForAll()
            }
            let edited = try #require(try await store.plan(plan.id, of: kitchen)?.schedule)
            #expect(edited.map(\.emptyReason) == meals.indices.map { "edit \($0)" })
        }
    }

    @Test("an edit that throws changes nothing and is thrown; a plan of another kitchen is nil", arguments: StoreKind.allCases)
    func failedEditChangesNothing(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let kitchen = Kitchen.own(UUID())
            let plan = Self.plan(from: "2026-11-30", days: 1)
            try await store.create(plan, for: kitchen)
            await #expect(throws: EditRefused.self) {
                try await store.editSchedule(of: plan.id, in: kitchen) { _ in throw EditRefused() }
            }
            #expect(try await store.plan(plan.id, of: kitchen) == plan)
            #expect(try await store.editSchedule(of: plan.id, in: Kitchen.own(UUID())) { _ in [] } == nil)
        }
    }

    struct EditRefused: Error {}
}

import Foundation
import KiwiModels
import Synchronization

@testable import KiwiGateway

/// Meal plans in memory, kept the way ``PostgresMealPlanStore`` keeps them.
final class FakeMealPlanStore: MealPlanStore {
    /// Whether a scan is open, as the scans' table says (the fake ledger's, in a fake gateway).
    private let scanIsOpen: @Sendable (UUID) -> Bool

    init(scanIsOpen: @escaping @Sendable (UUID) -> Bool = { _ in false }) {
        self.scanIsOpen = scanIsOpen
    }

    private let plans = Mutex<[(kitchen: UUID, plan: MealPlanRecord, calendar: Data?)]>([])
    private let afterNextRead = Mutex<(@Sendable () -> Void)?>(nil)
    private let recipes = Mutex<[(plan: UUID, record: MealRecipeRecord)]>([])
    private let replacements = Mutex<[UUID: (plan: UUID, meal: UUID)]>([:])

    func create(_ plan: MealPlanRecord, for kitchen: Kitchen) async throws {
        plans.withLock { kept in
            if !kept.contains(where: { $0.plan.id == plan.id }) { kept.append((kitchen.id, plan, nil)) }
        }
    }

    func plan(_ id: UUID, of kitchen: Kitchen) async throws -> MealPlanRecord? {
        let read = plans.withLock { kept in kept.first { $0.kitchen == kitchen.id && $0.plan.id == id }?.plan }
        afterNextRead.withLock { $0.take() }?()
        return read
    }

    func plans(of kitchen: Kitchen, overlapping days: ClosedRange<CalendarDay>, limit: Int) async throws -> [MealPlanRecord] {
        plans.withLock { kept in
            kept.filter { $0.kitchen == kitchen.id && $0.plan.request.dates.overlaps(days) }.map(\.plan)
                .sorted { ($0.request.from, $1.createdAt, $0.id.uuidString) < ($1.request.from, $0.createdAt, $1.id.uuidString) }
                .prefix(limit).map { $0 }
        }
    }

    func deleteAll(of kitchen: Kitchen) async throws {
        let gone = plans.withLock { kept in
            defer { kept.removeAll { $0.kitchen == kitchen.id } }
            return Set(kept.filter { $0.kitchen == kitchen.id }.map(\.plan.id))
        }
        recipes.withLock { kept in kept.removeAll { gone.contains($0.plan) } }
    }

    func editSchedule(
        of id: UUID,
        in kitchen: Kitchen,
        _ edit: @escaping @Sendable (MealPlanRecord) throws -> [PlannedMeal]
    ) async throws -> MealPlanRecord? {
        try plans.withLock { kept in
            guard let index = kept.firstIndex(where: { $0.kitchen == kitchen.id && $0.plan.id == id }) else { return nil }
            kept[index].plan.schedule = try edit(kept[index].plan)
            return kept[index].plan
        }
    }

    func setCalendar(_ tokenDigest: Data?, of id: UUID, in kitchen: Kitchen) async throws -> Bool {
        plans.withLock { kept in
            guard let index = kept.firstIndex(where: { $0.kitchen == kitchen.id && $0.plan.id == id }) else { return false }
            kept[index].calendar = tokenDigest
            return true
        }
    }

    func plan(calendar tokenDigest: Data) async throws -> MealPlanRecord? {
        plans.withLock { kept in kept.first { $0.calendar == tokenDigest }?.plan }
    }

    func addMealRecipe(scan scanID: UUID, meal mealID: UUID, of planID: UUID) async throws {
        recipes.withLock { kept in
            if !kept.contains(where: { $0.record.scanID == scanID }) {
                kept.append((planID, MealRecipeRecord(mealID: mealID, scanID: scanID)))
            }
        }
    }

    func mealRecipes(of planID: UUID) async throws -> [MealRecipeRecord] {
        recipes.withLock { kept in
            kept.filter { $0.plan == planID }.map { _, record in
                var read = record
                read.isWriting = scanIsOpen(record.scanID)
                return read
            }
        }
    }

    func forgetMealRecipes(of mealID: UUID, in planID: UUID) async throws {
        recipes.withLock { kept in kept.removeAll { $0.plan == planID && $0.record.mealID == mealID } }
    }

    func addReplacement(scan scanID: UUID, meal mealID: UUID, of planID: UUID) async throws {
        replacements.withLock { $0[scanID] = $0[scanID] ?? (planID, mealID) }
    }

    /// The plan and meal scan `scanID` replaces, as tied to it.
    func replaced(by scanID: UUID) -> (plan: UUID, meal: UUID)? {
        replacements.withLock { $0[scanID] }
    }

    /// Writes the recipe of scan `scanID`'s meal, or why it was withheld, as the worker would with its scan's success.
    func write(_ recipe: Recipe?, withheldReason: String? = nil, of scanID: UUID) {
        recipes.withLock { kept in
            for index in kept.indices where kept[index].record.scanID == scanID {
                kept[index].record.recipe = recipe
                kept[index].record.withheldReason = withheldReason
            }
        }
    }

    /// Runs `body` once, just after the next plan is read: what another process does between a read and the next.
    func afterNextRead(_ body: @escaping @Sendable () -> Void) {
        afterNextRead.withLock { $0 = body }
    }

    /// Outlines plan `id` as the worker would with its scan's success.
    func outline(_ id: UUID, with schedule: [PlannedMeal]) {
        plans.withLock { kept in
            if let index = kept.firstIndex(where: { $0.plan.id == id }) { kept[index].plan.schedule = schedule }
        }
    }
}

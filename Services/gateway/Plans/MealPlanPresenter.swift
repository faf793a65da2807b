import Foundation
import HTTPTypes
import KiwiModels
import KiwiScans
import KiwiServiceSupport

/// How a kitchen's meal plan reads in the API (``MealPlan``), which depends on its scan while it has no meals: every
/// route that shows a plan, and the account's export, show it this way.
struct MealPlanPresenter: Sendable {
    let scans: ScanCoordinator
    let plans: any MealPlanStore

    /// The plan as the API shows it: `ready` with its meals, or as its scan stands: `planning` while it runs, `failed`
    /// (with the scan's error) when it failed, was deleted or succeeded without an outline. The plan was read before its
    /// scan, and the scan may have ended in between: its meals are written as it succeeds, so a plan without them whose
    /// scan has succeeded is read once more.
    func shown(_ plan: MealPlanRecord, of kitchen: Kitchen) async throws -> MealPlan {
        if plan.schedule != nil { return Self.shown(plan, "ready") }
        guard let creator = plan.createdBy, let scan = try await scans.scan(plan.id, of: creator) else {
            return Self.shown(plan, "failed", Self.gone.body)
        }
        if scan.state.isOpen { return Self.shown(plan, "planning") }
        if scan.state == .succeeded, let again = try await plans.plan(plan.id, of: kitchen), again.schedule != nil {
            return Self.shown(again, "ready")
        }
        // A failed scan was not counted. One that succeeded without writing the meals would read as failed too; none
        // does, as a worker of the release before fails a plan's job.
        let code = scan.failure.map { ScanAPIErrors.apiError(for: $0).body.error } ?? .invalidModelResponse
        return Self.shown(plan, "failed", ErrorBody(error: code, message: "This plan could not be made, and was not counted; ask for it again."))
    }

    private static func shown(_ plan: MealPlanRecord, _ status: String, _ error: ErrorBody? = nil) -> MealPlan {
        MealPlan(
            id: plan.id,
            status: status,
            request: plan.request,
            pantryWasEmpty: plan.pantryWasEmpty,
            createdAt: plan.createdAt,
            schedule: plan.schedule,
            error: error
        )
    }

    /// The plan's scan is gone before it outlined the plan (deleted by its person, or with their account), or its person
    /// left the kitchen.
    private static let gone = APIError(.badGateway, .invalidModelResponse, "This plan was not outlined; ask for a new one.")
}

import Foundation

/// One person an answer is made for, by their household member id: the rules of theirs the answer must keep. A scan
/// of a household member carries a seat for each member it cooks for, so that a withheld recipe or a conflict can say
/// for whom (docs/architecture.md, "Households").
public struct TableSeat: Codable, Hashable, Sendable {
    public var memberId: UUID
    public var allergies: [KitchenProfile.Allergen]
    public var diets: [KitchenProfile.Diet]

    public init(memberId: UUID, allergies: [KitchenProfile.Allergen], diets: [KitchenProfile.Diet]) {
        self.memberId = memberId
        self.allergies = allergies
        self.diets = diets
    }
}

extension [TableSeat] {
    /// The members allergic to `allergen`, in the seats' order.
    public func members(allergicTo allergen: KitchenProfile.Allergen) -> [UUID] {
        filter { $0.allergies.contains(allergen) }.map(\.memberId)
    }

    /// The members who keep `diet`, in the seats' order.
    public func members(keeping diet: KitchenProfile.Diet) -> [UUID] {
        filter { $0.diets.contains(diet) }.map(\.memberId)
    }
}

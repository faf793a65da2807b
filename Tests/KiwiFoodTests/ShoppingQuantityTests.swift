import KiwiFood
import KiwiModels
import Testing

/// A shopping list's quantities (docs/architecture.md, "The pantry and the shopping list"): summed in one unit, less
/// the pantry.
@Suite("Shopping quantities")
struct ShoppingQuantityTests {
    @Test("200 g and 1 cup of rice sum to grams by rice's density (185 g a cup)")
    func weightAndVolumeSumToGrams() throws {
        let sum = try #require(ShoppingQuantity.sum([Quantity(200, .g), Quantity(1, .cup)], key: "rice"))
        #expect(sum.unit == .g)
        #expect(abs(sum.amount - 385) < 0.001)
    }

    @Test("quantities of one unit keep it; volumes alone sum to millilitres")
    func sameUnitAndVolumes() throws {
        #expect(ShoppingQuantity.sum([Quantity(2, .piece), Quantity(3, .piece)], key: "egg") == Quantity(5, .piece))
        let milk = try #require(ShoppingQuantity.sum([Quantity(1, .cup), Quantity(100, .ml)], key: "milk"))
        #expect(milk.unit == .ml && abs(milk.amount - 336.588_236_5) < 0.001)
    }

    @Test("to taste adds nothing, and quantities that cannot be weighed do not add up")
    func whatDoesNotAddUp() {
        #expect(ShoppingQuantity.sum([Quantity(1, .toTaste), Quantity(5, .g)], key: "salt") == Quantity(5, .g))
        #expect(ShoppingQuantity.sum([Quantity(1, .toTaste)], key: "salt") == nil)
        #expect(ShoppingQuantity.sum([Quantity(1, .pack), Quantity(200, .g)], key: "no such food") == nil)
    }

    @Test("what the pantry holds is taken off, and the rest rounded as a cook measures")
    func pantryIsTakenOff() {
        #expect(ShoppingQuantity.remaining(Quantity(385, .g), after: Quantity(100, .g), key: "rice") == Quantity(290, .g))
        #expect(ShoppingQuantity.remaining(Quantity(2, .cup), after: Quantity(100, .g), key: "rice") == Quantity(270, .g))
        #expect(ShoppingQuantity.remaining(Quantity(1.2, .kg), after: Quantity(100, .g), key: "rice") == Quantity(1.1, .kg))
    }

    @Test("a pantry that holds enough, or an amount that cannot be compared, leaves nothing to buy")
    func enoughOrIncomparable() {
        #expect(ShoppingQuantity.remaining(Quantity(200, .g), after: Quantity(1, .kg), key: "rice") == nil)
        #expect(ShoppingQuantity.remaining(Quantity(200, .g), after: Quantity(2, .pack), key: "no such food") == nil)
    }
}

import KiwiDietGuard
import KiwiFood
import KiwiModels
import Testing

@Suite("Unit sizes and weighing")
struct QuantityWeighingTests {
    @Test(
        "each unit has its size in NIST Handbook 44, Appendix C",
        arguments: [
            (QuantityUnit.cup, 236.588), (.tbsp, 14.787), (.tsp, 4.929), (.fluidOunce, 29.574), (.ml, 1), (.l, 1000),
            (.oz, 28.3495), (.lb, 453.592), (.g, 1), (.kg, 1000),
        ]
    )
    func unitSizes(unit: QuantityUnit, published: Double) throws {
        let size = try #require(UnitSizes.millilitres[unit] ?? UnitSizes.grams[unit])
        #expect(abs(size - published) < 0.0005)
    }

    @Test(
        "US units nest as a cookbook says: 1 cup = 8 fl oz = 16 tbsp = 48 tsp, 1 lb = 16 oz",
        arguments: [(QuantityUnit.cup, QuantityUnit.fluidOunce, 8.0), (.cup, .tbsp, 16), (.tbsp, .tsp, 3), (.lb, .oz, 16)]
    )
    func unitsNest(larger: QuantityUnit, smaller: QuantityUnit, count: Double) throws {
        let sizes = UnitSizes.millilitres.merging(UnitSizes.grams) { first, _ in first }
        let largerSize = try #require(sizes[larger])
        let smallerSize = try #require(sizes[smaller])
        #expect(abs(largerSize / smallerSize - count) < 1e-9)
    }

    @Test(
        "a cup of a common food weighs its FoodData Central portion, and is not an estimate",
        arguments: [
            ("flour", 125.0), ("sugar", 200), ("butter", 227), ("milk", 244), ("water", 237), ("uncooked white rice", 185),
            ("olive oil", 216), ("honey", 339), ("rolled oat", 81), ("parmesan", 100), ("cheddar", 113), ("spinach", 30),
            ("onion", 160), ("tomato", 180), ("chicken broth", 240), ("yogurt", 245), ("heavy cream", 238),
        ]
    )
    func cupWeights(key: String, grams: Double) throws {
        let weighing = try #require(QuantityWeighing.weight(of: 1, .cup, key: key, defaultPortionGrams: nil))
        #expect(abs(weighing.grams - grams) < 0.05)
        #expect(!weighing.isEstimated)
    }

    @Test(
        "a piece of a common food weighs its FoodData Central portion, as an estimate",
        arguments: [
            ("egg", QuantityUnit.piece, 50.0), ("onion", .piece, 110), ("garlic", .clove, 3), ("tomato", .piece, 123),
            ("potato", .piece, 213), ("carrot", .piece, 61), ("bell pepper", .piece, 119), ("lemon", .piece, 58),
            ("lime", .piece, 67), ("apple", .piece, 182), ("banana", .piece, 118), ("avocado", .piece, 201),
            ("chicken breast", .piece, 174), ("bread", .slice, 27.3), ("tortilla", .piece, 49),
        ]
    )
    func pieceWeights(key: String, unit: QuantityUnit, grams: Double) throws {
        let weighing = try #require(QuantityWeighing.weight(of: 1, unit, key: key, defaultPortionGrams: 999))
        #expect(weighing == Weighing(grams: grams, isEstimated: true))
    }

    @Test("weights convert exactly and are not estimates", arguments: [(QuantityUnit.lb, 2.0, 907.18474), (.oz, 4, 113.398_092_5), (.kg, 0.5, 500)])
    func exactWeights(unit: QuantityUnit, amount: Double, grams: Double) throws {
        let weighing = try #require(QuantityWeighing.weight(of: amount, unit, key: "anything", defaultPortionGrams: nil))
        #expect(abs(weighing.grams - grams) < 1e-9)
        #expect(!weighing.isEstimated)
    }

    @Test("a volume of a food without a density is weighed at 1 g/ml, as an estimate")
    func assumedDensity() {
        #expect(QuantityWeighing.weight(of: 2, .tbsp, key: "fish sauce", defaultPortionGrams: nil)?.isEstimated == true)
        #expect(QuantityWeighing.weight(of: 250, .ml, key: "fish sauce", defaultPortionGrams: nil)?.grams == 250)
    }

    @Test("a piece of a food without a piece weight weighs the matched food's portion, else nothing")
    func defaultPortion() {
        #expect(QuantityWeighing.weight(of: 2, .piece, key: "dragon fruit", defaultPortionGrams: 300) == Weighing(grams: 600, isEstimated: true))
        #expect(QuantityWeighing.weight(of: 2, .piece, key: "dragon fruit", defaultPortionGrams: nil) == nil)
    }

    @Test("an amount without a unit counts pieces")
    func bareCount() {
        #expect(QuantityWeighing.weight(of: 2, nil, key: "egg", defaultPortionGrams: nil) == Weighing(grams: 100, isEstimated: true))
    }

    @Test("to taste, or no amount, cannot be weighed")
    func unweighable() {
        #expect(QuantityWeighing.weight(of: nil, .toTaste, key: "salt", defaultPortionGrams: nil) == nil)
        #expect(QuantityWeighing.weight(of: nil, nil, key: "salt", defaultPortionGrams: nil) == nil)
        #expect(QuantityWeighing.weight(of: 1, .toTaste, key: "salt", defaultPortionGrams: nil) == nil)
    }

    @Test("a pinch is a sixteenth of a teaspoon of the food, as an estimate")
    func pinch() throws {
        let weighing = try #require(QuantityWeighing.weight(of: 1, .pinch, key: "salt", defaultPortionGrams: nil))
        #expect(abs(weighing.grams - 6.0 / 16) < 1e-9)
        #expect(weighing.isEstimated)
    }

    @Test("a can weighs 400 g; a bunch or pack weighs its table row or nothing")
    func containers() {
        #expect(QuantityWeighing.weight(of: 2, .can, key: "chickpea", defaultPortionGrams: nil) == Weighing(grams: 800, isEstimated: true))
        #expect(QuantityWeighing.weight(of: 1, .bunch, key: "spinach", defaultPortionGrams: nil) == Weighing(grams: 340, isEstimated: true))
        #expect(QuantityWeighing.weight(of: 1, .pack, key: "tofu", defaultPortionGrams: nil) == nil)
    }

    @Test("every key of the tables is a normalised ingredient key, so that a lookup can find it")
    func tableKeysAreNormalised() {
        let rows = FoodDensity.table.flatMap(\.keys) + (PieceWeight.pieces + PieceWeight.bunches + PieceWeight.packs).flatMap(\.keys)
        #expect(rows.filter { IngredientKey.of($0) != $0 } == [])
    }

    @Test("no key is listed twice in one table")
    func tableKeysAreUnique() {
        for keys in [FoodDensity.table.flatMap(\.keys), PieceWeight.pieces.flatMap(\.keys), PieceWeight.bunches.flatMap(\.keys)] {
            #expect(Set(keys).count == keys.count)
        }
    }
}

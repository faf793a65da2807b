import KiwiModels

extension FridgeAnswers {
    /// One fridge per language Kiwi answers in besides English, written as a cook of that language writes: names, summaries,
    /// ingredients, substitutions, steps and tips all in that language, the same size as the English fridges' answers. Some
    /// allergens appear only in running text (a step, or inside a compound word such as "Erdnussbutter", "Butterschmalz",
    /// "beurre de cacahuète", "pindasaus"), and each fridge has a recipe with none. Every recipe's allergens are declared
    /// truthfully (EU 1169/2011, Annex II), hidden ones included: the bread of a gazpacho brings gluten and its sherry vinegar
    /// sulphites, ketjap manis soybeans and gluten, a soffritto celery, parmigiano named only in the last step milk.
    static let fridgesByLanguage: [AnswerLanguage: Fridge] = [
        .de: Fridge(
            ingredients: [
                ("Eier", "Protein", 0.95), ("Kartoffeln", "Vegetable", 0.9), ("Speck", "Protein", 0.86), ("Zwiebeln", "Vegetable", 0.78),
                ("Möhren", "Vegetable", 0.88), ("Äpfel", "Fruit", 0.82), ("Schnittlauch", "Vegetable", 0.68), ("Senf", "Condiment", 0.66),
                ("Zitrone", "Fruit", 0.73),
            ],
            recipes: [
                Recipe(
                    name: "Bauernfrühstück mit Speck und Schnittlauch",
                    summary: "Gebratene Kartoffelscheiben mit Speck und Zwiebeln, über denen zum Schluss verquirlte Eier stocken: ein deftiges "
                        + "Pfannengericht in zwanzig Minuten.",
                    minutes: 20,
                    difficulty: "easy",
                    ingredients: [
                        ("Kartoffeln", true, "Gekochte Kartoffeln vom Vortag", 400, .g),
                        ("Eier", true, nil, 4, .piece),
                        ("Speck", true, nil, 100, .g),
                        ("Zwiebeln", true, nil, 1, .piece),
                        ("Schnittlauch", true, "Frühlingszwiebel", 10, .g),
                        ("Butterschmalz", false, "Rapsöl", 2, .tbsp),
                        ("Salz und schwarzer Pfeffer", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Die Kartoffeln pellen und in dünne Scheiben schneiden, die Zwiebel fein würfeln und den Speck in kurze Streifen schneiden.",
                        "Zwei Esslöffel Butterschmalz in einer großen Pfanne erhitzen und die Kartoffelscheiben darin bei mittlerer bis starker "
                            + "Hitze etwa acht Minuten goldbraun braten, dabei nur ab und zu wenden.",
                        "Speck und Zwiebel dazugeben und drei Minuten mitbraten, bis der Speck knusprig und die Zwiebel glasig ist.",
                        "Inzwischen die Eier mit einer Prise Salz, Pfeffer und der Hälfte des fein geschnittenen Schnittlauchs verquirlen.",
                        "Die Hitze herunterschalten, die Eiermasse gleichmäßig über die Kartoffeln gießen und zugedeckt etwa vier Minuten stocken "
                            + "lassen, ohne zu rühren.",
                        "Mit dem restlichen Schnittlauch bestreuen und direkt aus der Pfanne servieren.",
                    ],
                    timers: [2: 8, 3: 3, 5: 4],
                    tip: "Pellkartoffeln vom Vortag nehmen: Sie lassen sich sauber schneiden und werden in der Hälfte der Zeit knusprig.",
                    allergens: [.eggs, .milk]
                ),
                Recipe(
                    name: "Senfeier mit Salzkartoffeln",
                    summary: "Wachsweich gekochte Eier in einer cremigen Senfsoße aus heller Mehlschwitze, dazu Salzkartoffeln und frischer "
                        + "Schnittlauch: Hausmannskost wie bei Oma.",
                    minutes: 30,
                    difficulty: "medium",
                    ingredients: [
                        ("Eier", true, nil, 4, .piece),
                        ("Kartoffeln", true, nil, 500, .g),
                        ("Senf", true, "Körniger Senf", 2, .tbsp),
                        ("Milch", false, nil, 300, .ml),
                        ("Butter", false, nil, 20, .g),
                        ("Weizenmehl", false, "Speisestärke, in kalter Milch angerührt", 20, .g),
                        ("Schnittlauch", true, nil, 10, .g),
                        ("Salz und eine Prise Zucker", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Die Kartoffeln schälen, vierteln und in reichlich Salzwasser zugedeckt etwa zwanzig Minuten garen.",
                        "Die Eier anstechen, in kochendem Wasser sieben Minuten wachsweich kochen, kalt abschrecken und pellen.",
                        "Für die Mehlschwitze die Butter in einem Topf schmelzen, das Mehl einrühren und unter Rühren eine Minute hell anschwitzen.",
                        "Nach und nach die kalte Milch mit dem Schneebesen einrühren, damit keine Klümpchen entstehen, und die Soße fünf Minuten "
                            + "leise köcheln lassen.",
                        "Den Senf einrühren und die Senfsoße mit Salz und einer Prise Zucker abschmecken: Sie soll deutlich nach Senf schmecken, "
                            + "aber nicht scharf sein.",
                        "Die gepellten Eier halbieren, mit der Schnittfläche nach oben in die Soße legen und kurz darin erwärmen.",
                        "Mit den Salzkartoffeln anrichten und reichlich Schnittlauch darüberstreuen.",
                    ],
                    timers: [1: 20, 2: 7, 4: 5],
                    tip: "Die Eier für die letzten sieben Minuten zu den Kartoffeln in den Topf geben und die Soße kochen, während beides gart.",
                    allergens: [.gluten, .eggs, .milk, .mustard]
                ),
                Recipe(
                    name: "Möhren-Apfel-Rohkost mit Erdnussdressing",
                    summary: "Frisch geraspelte Möhren und säuerlicher Apfel in einem cremigen Dressing aus Erdnussbutter, Zitrone und Honig, mit "
                        + "gerösteten Erdnüssen bestreut.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [
                        ("Möhren", true, nil, 300, .g),
                        ("Äpfel", true, nil, 1, .piece),
                        ("Zitrone", true, "Orangensaft", 0.5, .piece),
                        ("Erdnussbutter", false, nil, 1, .tbsp),
                        ("Ungesalzene Erdnüsse", false, "Sonnenblumenkerne", 20, .g),
                        ("Honig", false, "Ahornsirup", 1, .tsp),
                        ("Rapsöl", false, nil, 1, .tbsp),
                        ("Salz", false, nil, 1, .pinch),
                    ],
                    steps: [
                        "Die Möhren schälen und grob raspeln, den Apfel vierteln, entkernen und mit der Schale ebenfalls raspeln.",
                        "Apfel und Möhren sofort mit dem Saft einer halben Zitrone mischen, damit der Apfel nicht braun wird.",
                        "Für das Dressing einen Esslöffel Erdnussbutter mit Honig, Rapsöl, einer Prise Salz und zwei Esslöffeln warmem Wasser glatt "
                            + "rühren.",
                        "Die Erdnüsse in einer trockenen Pfanne bei mittlerer Hitze drei Minuten rösten, bis sie duften, und grob hacken.",
                        "Das Dressing unter die Rohkost heben und fünf Minuten durchziehen lassen.",
                        "Mit den gehackten Erdnüssen bestreuen und gleich servieren.",
                    ],
                    timers: [4: 3, 5: 5],
                    tip: "Die Möhren in der Küchenmaschine raspeln und schon geröstete Erdnüsse nehmen.",
                    allergens: [.peanuts]
                ),
                Recipe(
                    name: "Bratkartoffeln mit Speck und Zwiebeln",
                    summary: "Knusprige Bratkartoffeln aus Pellkartoffeln, mit Speckwürfeln und Zwiebelringen in Rapsöl gebraten und mit Majoran "
                        + "gewürzt.",
                    minutes: 25,
                    difficulty: "easy",
                    ingredients: [
                        ("Kartoffeln", true, nil, 600, .g),
                        ("Speck", true, nil, 80, .g),
                        ("Zwiebeln", true, nil, 1, .piece),
                        ("Rapsöl", false, "Sonnenblumenöl", 3, .tbsp),
                        ("Getrockneter Majoran", false, "Kümmel", 1, .tsp),
                        ("Schnittlauch", true, nil, 5, .g),
                        ("Salz und schwarzer Pfeffer", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Die gekochten Kartoffeln pellen und in gut einen halben Zentimeter dicke Scheiben schneiden.",
                        "Das Rapsöl in einer großen gusseisernen Pfanne stark erhitzen und die Kartoffeln in einer Lage hineinlegen.",
                        "Zehn Minuten braten, ohne sie zu bewegen, bis die Unterseite eine goldbraune Kruste hat, dann wenden und weitere fünf "
                            + "Minuten braten.",
                        "Den Speck würfeln, die Zwiebel in halbe Ringe schneiden und beides zu den Kartoffeln geben.",
                        "Vier Minuten weiterbraten, bis die Zwiebeln weich und leicht gebräunt sind.",
                        "Mit Salz, Pfeffer und zwischen den Fingern zerriebenem Majoran würzen und mit Schnittlauch bestreut servieren.",
                    ],
                    timers: [3: 15, 5: 4],
                    tip: "Zwei Pfannen gleichzeitig nehmen: Die Kartoffeln liegen dann in einer Lage und werden schneller knusprig.",
                    allergens: []
                ),
            ],
            englishNames: [
                "Eier": "eggs", "Kartoffeln": "potatoes", "Speck": "bacon", "Zwiebeln": "onions", "Möhren": "carrots", "Äpfel": "apples",
                "Schnittlauch": "chives", "Senf": "mustard", "Zitrone": "lemon", "Butterschmalz": "clarified butter",
                "Salz und schwarzer Pfeffer": "salt and black pepper", "Milch": "milk", "Butter": "butter", "Weizenmehl": "wheat flour",
                "Salz und eine Prise Zucker": "salt and a pinch of sugar", "Erdnussbutter": "peanut butter",
                "Ungesalzene Erdnüsse": "unsalted peanuts", "Honig": "honey", "Rapsöl": "rapeseed oil", "Salz": "salt",
                "Getrockneter Majoran": "dried marjoram",
            ]
        ),
        .fr: Fridge(
            ingredients: [
                ("Œufs", "Protein", 0.94), ("Poireaux", "Vegetable", 0.86), ("Champignons de Paris", "Vegetable", 0.83),
                ("Jambon blanc", "Protein", 0.87), ("Gruyère râpé", "Dairy", 0.8), ("Crème fraîche épaisse", "Dairy", 0.77),
                ("Moutarde de Dijon", "Condiment", 0.68), ("Pommes", "Fruit", 0.79), ("Échalotes", "Vegetable", 0.7),
            ],
            recipes: [
                Recipe(
                    name: "Omelette baveuse aux champignons et au gruyère",
                    summary: "Une omelette encore baveuse à cœur, garnie de champignons de Paris poêlés au beurre avec une échalote et de gruyère "
                        + "fondu.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [
                        ("Œufs", true, nil, 4, .piece),
                        ("Champignons de Paris", true, nil, 150, .g),
                        ("Gruyère râpé", true, "Emmental râpé", 40, .g),
                        ("Échalotes", true, "Un petit oignon", 1, .piece),
                        ("Beurre", false, "Huile d'olive", 20, .g),
                        ("Persil plat", false, "Ciboulette", 1, .tbsp),
                        ("Sel et poivre du moulin", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Émincer finement les champignons et ciseler l'échalote.",
                        "Faire fondre une noix de beurre dans une poêle et y faire revenir les champignons et l'échalote cinq minutes à feu vif, "
                            + "jusqu'à ce que leur eau se soit évaporée.",
                        "Saler, poivrer, ajouter le persil haché et réserver les champignons dans une assiette.",
                        "Battre les œufs à la fourchette avec une pincée de sel, sans les faire mousser.",
                        "Remettre un peu de beurre dans la poêle, verser le mélange d'œufs battus et ramener les bords vers le centre avec une "
                            + "spatule pendant deux minutes.",
                        "Quand l'omelette est prise dessous mais encore baveuse dessus, répartir les champignons et le gruyère sur une moitié.",
                        "Replier l'omelette, laisser fondre le fromage trente secondes et la faire glisser sur une assiette chaude.",
                    ],
                    timers: [2: 5, 5: 2],
                    tip: "Acheter des champignons déjà émincés et du gruyère râpé: il ne reste plus qu'à battre les œufs.",
                    allergens: [.eggs, .milk]
                ),
                Recipe(
                    name: "Poireaux fondants à la moutarde et au jambon",
                    summary: "Des poireaux étuvés au beurre, déglacés au vin blanc puis liés à la crème fraîche et à la moutarde de Dijon, avec des "
                        + "lanières de jambon: parfait avec des pommes de terre vapeur ou du riz.",
                    minutes: 25,
                    difficulty: "easy",
                    ingredients: [
                        ("Poireaux", true, nil, 3, .piece),
                        ("Jambon blanc", true, "Des lardons", 120, .g),
                        ("Crème fraîche épaisse", true, nil, 100, .g),
                        ("Moutarde de Dijon", true, "Moutarde à l'ancienne", 1, .tbsp),
                        ("Vin blanc sec", false, "Un trait de jus de citron allongé d'eau", 50, .ml),
                        ("Beurre", false, nil, 20, .g),
                        ("Sel et poivre", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Couper les poireaux en deux dans la longueur, les rincer soigneusement entre les feuilles et les émincer en tronçons d'un "
                            + "centimètre.",
                        "Faire fondre le beurre dans une sauteuse, ajouter les poireaux avec une pincée de sel et les faire suer trois minutes en "
                            + "remuant.",
                        "Déglacer avec un trait de vin blanc, couvrir et laisser fondre à feu doux dix minutes, jusqu'à ce que les poireaux soient "
                            + "très tendres.",
                        "Pendant ce temps, couper le jambon en fines lanières.",
                        "Mélanger la crème fraîche avec la moutarde de Dijon et verser sur les poireaux.",
                        "Ajouter le jambon, laisser épaissir deux minutes à découvert, poivrer généreusement et servir bien chaud.",
                    ],
                    timers: [2: 3, 3: 10, 6: 2],
                    tip: "Émincer les poireaux très finement: ils fondent en cinq minutes au lieu de dix.",
                    allergens: [.milk, .mustard, .sulphites]
                ),
                Recipe(
                    name: "Tartines au beurre de cacahuète et aux pommes caramélisées",
                    summary: "Du pain de campagne grillé, tartiné de beurre de cacahuète et garni de lamelles de pomme caramélisées au miel et à la "
                        + "cannelle: un goûter ou un petit-déjeuner express.",
                    minutes: 10,
                    difficulty: "easy",
                    ingredients: [
                        ("Pain de campagne", false, "Pain complet", 4, .piece),
                        ("Beurre de cacahuète", false, nil, 3, .tbsp),
                        ("Pommes", true, nil, 1, .piece),
                        ("Miel", false, "Sirop d'érable", 2, .tsp),
                        ("Cannelle en poudre", false, nil, 1, .pinch),
                        ("Fleur de sel", false, nil, 1, .pinch),
                    ],
                    steps: [
                        "Couper la pomme en quatre, retirer le trognon et la détailler en fines lamelles sans l'éplucher.",
                        "Chauffer une poêle antiadhésive à feu moyen, y mettre les lamelles de pomme avec une cuillère à café de miel et la "
                            + "cannelle, et les laisser caraméliser quatre minutes en les retournant à mi-cuisson.",
                        "Pendant ce temps, faire griller les tranches de pain de campagne.",
                        "Tartiner chaque tranche encore chaude d'une bonne couche de beurre de cacahuète, qui va légèrement fondre.",
                        "Disposer les pommes caramélisées en éventail sur les tartines.",
                        "Finir avec un filet de miel et quelques grains de fleur de sel juste avant de servir.",
                    ],
                    timers: [2: 4],
                    tip: "Ne pas cuire les pommes: des lamelles crues avec une pincée de cannelle font aussi l'affaire, en deux minutes.",
                    allergens: [.gluten, .peanuts]
                ),
                Recipe(
                    name: "Poêlée de champignons et poireaux à l'ail et au persil",
                    summary: "Des champignons de Paris saisis à l'huile d'olive jusqu'à ce qu'ils soient bien dorés, puis mêlés à du poireau "
                        + "fondant, à l'ail et au persil: une garniture simple et parfumée.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [
                        ("Champignons de Paris", true, nil, 300, .g),
                        ("Poireaux", true, nil, 1, .piece),
                        ("Échalotes", true, nil, 1, .piece),
                        ("Ail", false, "Ail semoule", 2, .clove),
                        ("Persil plat", false, nil, 2, .tbsp),
                        ("Huile d'olive", false, "Huile de tournesol", 2, .tbsp),
                        ("Sel et poivre", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Nettoyer les champignons avec un papier absorbant humide et les couper en quartiers.",
                        "Émincer finement le blanc du poireau, ciseler l'échalote et hacher l'ail avec le persil.",
                        "Chauffer l'huile d'olive dans une grande poêle à feu vif et y saisir les champignons cinq minutes sans trop remuer, pour "
                            + "qu'ils dorent au lieu de rendre leur eau.",
                        "Ajouter le poireau et l'échalote et poursuivre la cuisson trois minutes, jusqu'à ce qu'ils soient tendres.",
                        "Hors du feu, ajouter le hachis d'ail et de persil, saler, poivrer et mélanger.",
                        "Servir aussitôt en accompagnement, avec un filet d'huile d'olive.",
                    ],
                    timers: [3: 5, 4: 3],
                    tip: "Ne pas laver les champignons à grande eau: un coup de papier humide suffit, et ils dorent plus vite.",
                    allergens: []
                ),
            ],
            englishNames: [
                "Œufs": "eggs", "Poireaux": "leeks", "Champignons de Paris": "button mushrooms", "Jambon blanc": "cooked ham",
                "Gruyère râpé": "grated gruyère", "Crème fraîche épaisse": "crème fraîche", "Moutarde de Dijon": "dijon mustard",
                "Pommes": "apples", "Échalotes": "shallots", "Beurre": "butter", "Persil plat": "flat-leaf parsley",
                "Sel et poivre du moulin": "salt and ground pepper", "Vin blanc sec": "dry white wine", "Sel et poivre": "salt and pepper",
                "Pain de campagne": "country bread", "Beurre de cacahuète": "peanut butter", "Miel": "honey",
                "Cannelle en poudre": "ground cinnamon", "Fleur de sel": "sea salt", "Ail": "garlic", "Huile d'olive": "olive oil",
            ]
        ),
        .es: Fridge(
            ingredients: [
                ("Huevos", "Protein", 0.95), ("Patatas", "Vegetable", 0.89), ("Cebolla", "Vegetable", 0.8), ("Pimiento rojo", "Vegetable", 0.85),
                ("Tomates maduros", "Vegetable", 0.88), ("Jamón serrano", "Protein", 0.82), ("Pepino", "Vegetable", 0.76),
                ("Queso manchego", "Dairy", 0.78), ("Ajo", "Vegetable", 0.7),
            ],
            recipes: [
                Recipe(
                    name: "Tortilla de patatas con cebolla",
                    summary: "La tortilla de siempre: patatas y cebolla pochadas despacio en aceite de oliva y cuajadas con huevo, jugosa por dentro "
                        + "y dorada por fuera.",
                    minutes: 40,
                    difficulty: "medium",
                    ingredients: [
                        ("Patatas", true, nil, 500, .g),
                        ("Huevos", true, nil, 5, .piece),
                        ("Cebolla", true, nil, 1, .piece),
                        ("Aceite de oliva virgen extra", false, "Aceite de girasol", 200, .ml),
                        ("Sal", false, nil, 1, .tsp),
                    ],
                    steps: [
                        "Pelar las patatas, cortarlas en láminas finas e irregulares y cortar la cebolla en juliana.",
                        "Calentar el aceite de oliva en una sartén a fuego medio, añadir las patatas y la cebolla con la sal y pocharlas veinte "
                            + "minutos, removiendo de vez en cuando, hasta que estén tiernas pero sin dorarse.",
                        "Escurrir bien las patatas y guardar el aceite para otros guisos.",
                        "Batir los huevos en un bol grande, mezclarlos con las patatas aún calientes y dejar reposar cinco minutos para que se "
                            + "empapen.",
                        "Calentar una cucharada del aceite en una sartén antiadherente, verter la mezcla de huevos batidos y patatas y cuajar a "
                            + "fuego medio-bajo unos tres minutos, moviendo la sartén.",
                        "Dar la vuelta a la tortilla con ayuda de un plato o una tapa y cuajarla otros dos minutos por el otro lado.",
                        "Dejarla templar un par de minutos antes de cortarla, para que el centro quede jugoso.",
                    ],
                    timers: [2: 20, 4: 5, 5: 3, 6: 2],
                    tip: "Cortar las patatas en dados pequeños y pocharlas tapadas: estarán tiernas en diez minutos.",
                    allergens: [.eggs]
                ),
                Recipe(
                    name: "Gazpacho andaluz",
                    summary: "Sopa fría de tomate maduro, pimiento, pepino y ajo, ligada con pan del día anterior y aceite de oliva y aliñada con "
                        + "vinagre de Jerez.",
                    minutes: 35,
                    difficulty: "easy",
                    ingredients: [
                        ("Tomates maduros", true, nil, 600, .g),
                        ("Pimiento rojo", true, "Pimiento verde", 0.5, .piece),
                        ("Pepino", true, nil, 0.5, .piece),
                        ("Ajo", true, nil, 1, .clove),
                        ("Pan del día anterior", false, "Omitirlo y añadir más aceite", 50, .g),
                        ("Aceite de oliva virgen extra", false, nil, 4, .tbsp),
                        ("Vinagre de Jerez", false, "Zumo de limón", 1, .tbsp),
                        ("Sal", false, nil, 1, .tsp),
                    ],
                    steps: [
                        "Poner el pan del día anterior en remojo con un poco de agua durante cinco minutos y escurrirlo con las manos.",
                        "Lavar los tomates y trocearlos, pelar el pepino y cortarlo en trozos, y quitarle las semillas al pimiento.",
                        "Triturar las verduras con el ajo pelado, el pan remojado, la sal y el vinagre de Jerez hasta obtener una crema fina.",
                        "Con la batidora en marcha, añadir el aceite de oliva en un hilo fino para que el gazpacho emulsione.",
                        "Pasarlo por un colador si se quiere más fino y rectificar de sal y vinagre.",
                        "Enfriarlo en la nevera al menos veinte minutos y servirlo muy frío, con daditos de pepino y pimiento por encima.",
                    ],
                    timers: [1: 5, 6: 20],
                    tip: "Usar tomates recién sacados de la nevera y añadir unos cubitos de hielo al triturar: se puede servir al momento.",
                    allergens: [.gluten, .sulphites]
                ),
                Recipe(
                    name: "Revuelto de pimientos y jamón con manchego",
                    summary: "Huevos revueltos cremosos con pimiento rojo y cebolla pochados y tiras de jamón serrano, con manchego rallado por "
                        + "encima.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [
                        ("Huevos", true, nil, 4, .piece),
                        ("Pimiento rojo", true, nil, 1, .piece),
                        ("Cebolla", true, "Cebolleta", 0.5, .piece),
                        ("Jamón serrano", true, nil, 60, .g),
                        ("Queso manchego", true, "Queso curado", 30, .g),
                        ("Aceite de oliva virgen extra", false, nil, 2, .tbsp),
                        ("Pimienta negra", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Cortar el pimiento en tiras finas, picar la cebolla y trocear el jamón en tiras.",
                        "Pochar el pimiento y la cebolla en el aceite de oliva a fuego medio durante seis minutos, hasta que estén blandos.",
                        "Añadir el jamón y saltearlo un minuto, solo hasta que suelte su grasa.",
                        "Batir ligeramente los huevos con una pizca de sal, sin que lleguen a espumar.",
                        "Bajar el fuego, verter los huevos y remover despacio con una cuchara de madera hasta que cuajen pero sigan jugosos.",
                        "Retirar del fuego, añadir una nuez de mantequilla para darle brillo y servir con el manchego rallado y pimienta negra "
                            + "recién molida.",
                    ],
                    timers: [2: 6, 3: 1],
                    tip: "Comprar el jamón ya cortado en taquitos y el pimiento asado en tarro: el revuelto está listo en cinco minutos.",
                    allergens: [.eggs, .milk]
                ),
                Recipe(
                    name: "Pisto de verduras",
                    summary: "Cebolla, pimiento, calabacín y tomate pochados despacio en aceite de oliva hasta formar un guiso meloso, el plato de "
                        + "huerta de toda la vida.",
                    minutes: 30,
                    difficulty: "easy",
                    ingredients: [
                        ("Tomates maduros", true, nil, 400, .g),
                        ("Pimiento rojo", true, nil, 1, .piece),
                        ("Cebolla", true, nil, 1, .piece),
                        ("Calabacín", false, "Berenjena", 1, .piece),
                        ("Ajo", true, nil, 2, .clove),
                        ("Aceite de oliva virgen extra", false, nil, 3, .tbsp),
                        ("Azúcar", false, nil, 1, .pinch),
                        ("Sal", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Picar la cebolla, el pimiento y el calabacín en dados pequeños y laminar los ajos.",
                        "Rallar los tomates por la parte gruesa del rallador y desechar la piel.",
                        "Pochar la cebolla y el ajo en el aceite de oliva a fuego medio cinco minutos, hasta que estén transparentes.",
                        "Añadir el pimiento y cocinarlo cinco minutos, y después el calabacín otros cinco, removiendo de vez en cuando.",
                        "Incorporar el tomate rallado con una pizca de azúcar y de sal y dejar que se haga a fuego suave diez minutos, hasta que el "
                            + "pisto esté meloso.",
                        "Servirlo caliente o templado, como primer plato o como guarnición.",
                    ],
                    timers: [3: 5, 4: 10, 5: 10],
                    tip: "Usar tomate triturado de lata en lugar de rallar los tomates: se ahorran cinco minutos y queda igual de rico.",
                    allergens: []
                ),
            ],
            englishNames: [
                "Huevos": "eggs", "Patatas": "potatoes", "Cebolla": "onion", "Pimiento rojo": "red bell pepper",
                "Tomates maduros": "ripe tomatoes", "Jamón serrano": "serrano ham", "Pepino": "cucumber",
                "Queso manchego": "manchego cheese", "Ajo": "garlic", "Aceite de oliva virgen extra": "extra virgin olive oil",
                "Sal": "salt", "Pan del día anterior": "day-old bread", "Vinagre de Jerez": "sherry vinegar",
                "Pimienta negra": "black pepper", "Calabacín": "zucchini", "Azúcar": "sugar",
            ]
        ),
        .it: Fridge(
            ingredients: [
                ("Uova", "Protein", 0.94), ("Zucchine", "Vegetable", 0.87), ("Pomodorini", "Vegetable", 0.85), ("Mozzarella", "Dairy", 0.83),
                ("Parmigiano Reggiano", "Dairy", 0.8), ("Basilico", "Vegetable", 0.71), ("Sedano", "Vegetable", 0.7), ("Carote", "Vegetable", 0.86),
                ("Cipolla", "Vegetable", 0.76),
            ],
            recipes: [
                Recipe(
                    name: "Frittata di zucchine e parmigiano",
                    summary: "Una frittata alta e morbida con zucchine rosolate in padella, parmigiano grattugiato e basilico, cotta lentamente e "
                        + "girata con un piatto.",
                    minutes: 25,
                    difficulty: "easy",
                    ingredients: [
                        ("Uova", true, nil, 5, .piece),
                        ("Zucchine", true, nil, 2, .piece),
                        ("Parmigiano Reggiano", true, "Grana Padano", 40, .g),
                        ("Cipolla", true, "Cipollotto", 0.5, .piece),
                        ("Basilico", true, nil, 5, .g),
                        ("Olio extravergine d'oliva", false, nil, 2, .tbsp),
                        ("Sale e pepe nero", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Tagliare le zucchine a rondelle sottili e affettare finemente la cipolla.",
                        "Scaldare l'olio in una padella antiaderente, far appassire la cipolla per due minuti, poi aggiungere le zucchine e "
                            + "rosolarle a fuoco medio per otto minuti, finché sono dorate.",
                        "In una ciotola sbattere le uova con il parmigiano grattugiato, il basilico spezzettato, un pizzico di sale e una macinata "
                            + "di pepe.",
                        "Versare le uova sbattute sulle zucchine, abbassare la fiamma e coprire con un coperchio.",
                        "Cuocere per sei minuti, finché i bordi sono rappresi e il centro è ancora leggermente morbido.",
                        "Capovolgere la frittata su un piatto, farla scivolare di nuovo in padella e cuocere l'altro lato per tre minuti.",
                        "Lasciarla intiepidire qualche minuto prima di tagliarla a spicchi: è buona anche fredda.",
                    ],
                    timers: [2: 8, 5: 6, 6: 3],
                    tip: "Grattugiare le zucchine invece di affettarle: cuociono in tre minuti, e la frittata si finisce sotto il grill del forno "
                        + "senza girarla.",
                    allergens: [.eggs, .milk]
                ),
                Recipe(
                    name: "Spaghetti con pomodorini, mozzarella e basilico",
                    summary: "Spaghetti saltati con pomodorini scottati in padella con aglio e olio, conditi fuori dal fuoco con cubetti di "
                        + "mozzarella che si sciolgono e basilico fresco.",
                    minutes: 20,
                    difficulty: "easy",
                    ingredients: [
                        ("Spaghetti", false, "Penne o altra pasta secca", 200, .g),
                        ("Pomodorini", true, nil, 300, .g),
                        ("Mozzarella", true, "Burrata", 125, .g),
                        ("Basilico", true, nil, 5, .g),
                        ("Aglio", false, nil, 1, .clove),
                        ("Olio extravergine d'oliva", false, nil, 3, .tbsp),
                        ("Sale", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Portare a bollore una pentola d'acqua, salarla e cuocere gli spaghetti al dente.",
                        "Nel frattempo tagliare i pomodorini a metà e la mozzarella a cubetti, lasciandola scolare in un colino.",
                        "In una padella larga scaldare l'olio con lo spicchio d'aglio schiacciato finché sfrigola, poi aggiungere i pomodorini e "
                            + "saltarli a fuoco vivace per quattro minuti.",
                        "Togliere l'aglio e schiacciare leggermente i pomodorini con il dorso di un cucchiaio perché rilascino il loro sugo.",
                        "Scolare la pasta tenendo da parte un mestolo di acqua di cottura e saltarla nella padella con il sugo, aggiungendo un po' "
                            + "d'acqua per legare.",
                        "A fuoco spento unire la mozzarella e il basilico spezzettato a mano, mescolare e servire subito.",
                    ],
                    timers: [1: 10, 3: 4],
                    tip: "Cuocere la pasta direttamente nella padella dei pomodorini, aggiungendo acqua calda poco alla volta come per un risotto: "
                        + "una pentola in meno.",
                    allergens: [.gluten, .milk]
                ),
                Recipe(
                    name: "Minestra di verdure con pomodorini",
                    summary: "Una minestra leggera che parte da un soffritto di sedano, carota e cipolla, con zucchine e pomodorini, finita con olio "
                        + "a crudo, basilico e parmigiano.",
                    minutes: 35,
                    difficulty: "easy",
                    ingredients: [
                        ("Sedano", true, nil, 1, .piece),
                        ("Carote", true, nil, 2, .piece),
                        ("Cipolla", true, nil, 1, .piece),
                        ("Zucchine", true, nil, 1, .piece),
                        ("Pomodorini", true, "Passata di pomodoro", 200, .g),
                        ("Olio extravergine d'oliva", false, nil, 3, .tbsp),
                        ("Basilico", true, nil, 5, .g),
                        ("Sale", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Tritare finemente una costa di sedano, le carote e la cipolla.",
                        "Scaldare l'olio in una pentola dal fondo spesso e far appassire il soffritto di sedano, carota e cipolla a fuoco dolce per "
                            + "cinque minuti, mescolando spesso.",
                        "Aggiungere le zucchine a dadini e i pomodorini tagliati in quattro e lasciar insaporire per due minuti.",
                        "Coprire con circa ottocento millilitri di acqua calda, salare e portare a bollore.",
                        "Abbassare la fiamma e lasciar sobbollire con il coperchio socchiuso per venti minuti, finché le verdure sono tenere.",
                        "Servire ben calda con un filo d'olio a crudo, il basilico spezzettato e una spolverata di parmigiano grattugiato.",
                    ],
                    timers: [2: 5, 3: 2, 5: 20],
                    tip: "Tritare tutte le verdure nel mixer: a dadini piccolissimi bastano dieci minuti di bollore.",
                    allergens: [.milk, .celery]
                ),
                Recipe(
                    name: "Zucchine trifolate al basilico",
                    summary: "Zucchine a rondelle saltate in padella con aglio, olio e un pizzico di peperoncino finché sono dorate e morbide, "
                        + "profumate con basilico fresco.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [
                        ("Zucchine", true, nil, 3, .piece),
                        ("Aglio", false, "Cipolla", 2, .clove),
                        ("Basilico", true, "Prezzemolo", 5, .g),
                        ("Olio extravergine d'oliva", false, nil, 3, .tbsp),
                        ("Peperoncino", false, "Pepe nero", 1, .pinch),
                        ("Sale", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Lavare le zucchine, spuntarle e tagliarle a rondelle di mezzo centimetro.",
                        "Scaldare l'olio in una padella larga con gli spicchi d'aglio in camicia leggermente schiacciati.",
                        "Aggiungere le zucchine in un solo strato e cuocerle a fuoco vivace per otto minuti, girandole spesso, finché sono dorate ai "
                            + "bordi.",
                        "Salare solo a fine cottura, perché non rilascino acqua, e aggiungere il peperoncino.",
                        "Togliere l'aglio, spegnere il fuoco e unire il basilico spezzettato a mano.",
                        "Servire come contorno, caldo o a temperatura ambiente.",
                    ],
                    timers: [3: 8],
                    tip: "Usare una padella molto larga, o due padelle insieme: le zucchine rosolano invece di lessarsi e sono pronte prima.",
                    allergens: []
                ),
            ],
            englishNames: [
                "Uova": "eggs", "Zucchine": "zucchini", "Pomodorini": "cherry tomatoes", "Mozzarella": "mozzarella",
                "Parmigiano Reggiano": "parmesan", "Basilico": "basil", "Sedano": "celery", "Carote": "carrots", "Cipolla": "onion",
                "Olio extravergine d'oliva": "extra virgin olive oil", "Sale e pepe nero": "salt and black pepper",
                "Spaghetti": "spaghetti", "Aglio": "garlic", "Sale": "salt", "Peperoncino": "chili pepper",
            ]
        ),
        .nl: Fridge(
            ingredients: [
                ("Eieren", "Protein", 0.95), ("Aardappelen", "Vegetable", 0.9), ("Boerenkool", "Vegetable", 0.84), ("Spekjes", "Protein", 0.85),
                ("Jonge kaas", "Dairy", 0.82), ("Wortels", "Vegetable", 0.87), ("Uien", "Vegetable", 0.77), ("Pindakaas", "Condiment", 0.72),
                ("Melk", "Dairy", 0.91),
            ],
            recipes: [
                Recipe(
                    name: "Boerenkoolstamppot met spekjes",
                    summary: "Romige stamppot van kruimige aardappelen en fijngesneden boerenkool, gestampt met warme melk en roomboter en vol "
                        + "knapperige spekjes.",
                    minutes: 30,
                    difficulty: "easy",
                    ingredients: [
                        ("Aardappelen", true, nil, 600, .g),
                        ("Boerenkool", true, nil, 300, .g),
                        ("Spekjes", true, nil, 100, .g),
                        ("Melk", true, nil, 100, .ml),
                        ("Roomboter", false, "Olijfolie", 20, .g),
                        ("Nootmuskaat", false, nil, 1, .pinch),
                        ("Zout en peper", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Schil de aardappelen, snijd ze in gelijke stukken en zet ze op met water en een snufje zout.",
                        "Leg de gewassen boerenkool bovenop de aardappelen, breng aan de kook en laat alles met de deksel op de pan twintig minuten "
                            + "koken tot de aardappelen gaar zijn.",
                        "Bak intussen de spekjes zonder extra vet in een koekenpan in vijf minuten knapperig.",
                        "Verwarm de melk in een steelpannetje, maar laat hem niet koken.",
                        "Giet de aardappelen en de boerenkool af en stamp ze fijn met de warme melk en een klontje roomboter tot een smeuïge "
                            + "stamppot.",
                        "Schep de spekjes met het uitgebakken vet erdoor en breng op smaak met zout, peper en een snufje nootmuskaat.",
                    ],
                    timers: [2: 20, 3: 5],
                    tip: "Koop voorgesneden boerenkool en kleine aardappelen die je niet hoeft te schillen: dat scheelt tien minuten snijwerk.",
                    allergens: [.milk]
                ),
                Recipe(
                    name: "Uitsmijter met spek en kaas",
                    summary: "Sneetjes brood met knapperig spek, gesmolten jonge kaas en spiegeleieren erover, zo uit de pan: de klassieke Hollandse "
                        + "lunch.",
                    minutes: 12,
                    difficulty: "easy",
                    ingredients: [
                        ("Volkorenbrood", false, "Wit brood", 4, .piece),
                        ("Eieren", true, nil, 4, .piece),
                        ("Spekjes", true, "Plakjes ham", 60, .g),
                        ("Jonge kaas", true, nil, 60, .g),
                        ("Roomboter", false, nil, 15, .g),
                        ("Bieslook", false, "Lente-ui", 1, .tbsp),
                        ("Zout en peper", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Snijd de kaas in dunne plakken en knip de bieslook fijn.",
                        "Bak de spekjes in een grote koekenpan op middelhoog vuur in vier minuten knapperig en schep ze uit de pan.",
                        "Smelt een klontje roomboter in het spekvet en breek de eieren er voorzichtig naast elkaar in.",
                        "Leg de plakken kaas op het eiwit, zet het vuur laag en bak de eieren met de deksel op de pan drie minuten, tot het eiwit "
                            + "gestold is en de kaas smelt maar de eierdooiers nog zacht zijn.",
                        "Besmeer intussen het brood dun met roomboter en leg de sneetjes op de borden.",
                        "Schuif de eieren met kaas op het brood, strooi de spekjes en de bieslook erover en maak af met zout en versgemalen peper.",
                    ],
                    timers: [2: 4, 4: 3],
                    tip: "Bak de eieren en het spek tegelijk in één grote pan, elk aan een kant.",
                    allergens: [.gluten, .eggs, .milk]
                ),
                Recipe(
                    name: "Roergebakken wortel en boerenkool met pindasaus",
                    summary: "Wortel, ui en boerenkool kort en heet geroerbakt en overgoten met een snelle pindasaus van pindakaas, ketjap manis en "
                        + "sambal: Indisch geïnspireerd en in twintig minuten klaar.",
                    minutes: 20,
                    difficulty: "medium",
                    ingredients: [
                        ("Wortels", true, nil, 300, .g),
                        ("Boerenkool", true, "Spitskool", 150, .g),
                        ("Uien", true, nil, 1, .piece),
                        ("Pindakaas", true, nil, 3, .tbsp),
                        ("Ketjap manis", false, "Sojasaus met een theelepel suiker", 2, .tbsp),
                        ("Knoflook", false, nil, 2, .clove),
                        ("Sambal oelek", false, "Chilivlokken", 1, .tsp),
                        ("Zonnebloemolie", false, nil, 1, .tbsp),
                    ],
                    steps: [
                        "Snijd de wortels in dunne reepjes en de ui in halve ringen, en pers de knoflook.",
                        "Roer voor de pindasaus de pindakaas los met de ketjap, de sambal, de helft van de knoflook en zes eetlepels heet water tot "
                            + "een gladde, dikke saus.",
                        "Verhit de olie in een wok tot hij heel heet is en roerbak de wortel en de ui vier minuten.",
                        "Voeg de rest van de knoflook en de boerenkool toe en roerbak nog drie minuten, tot de kool geslonken maar nog felgroen is.",
                        "Schenk de pindasaus over de groenten en schep alles een minuut om tot het glanst.",
                        "Proef, maak eventueel op smaak met een extra scheutje ketjap en serveer met rijst.",
                    ],
                    timers: [3: 4, 4: 3, 5: 1],
                    tip: "Gebruik een zak voorgesneden roerbakgroenten en warm de pindasaus even op in de magnetron.",
                    allergens: [.gluten, .peanuts, .soybeans]
                ),
                Recipe(
                    name: "Geroosterde aardappelpartjes met wortel en tijm",
                    summary: "Aardappelpartjes, wortels en ui met olijfolie, tijm en paprikapoeder in de oven geroosterd tot ze knapperig en zoet "
                        + "zijn.",
                    minutes: 40,
                    difficulty: "easy",
                    ingredients: [
                        ("Aardappelen", true, nil, 500, .g),
                        ("Wortels", true, nil, 300, .g),
                        ("Uien", true, "Sjalotten", 1, .piece),
                        ("Olijfolie", false, "Zonnebloemolie", 3, .tbsp),
                        ("Gedroogde tijm", false, "Rozemarijn", 1, .tsp),
                        ("Paprikapoeder", false, nil, 1, .tsp),
                        ("Zout en peper", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Verwarm de oven voor op 220 graden en bekleed een bakplaat met bakpapier.",
                        "Snijd de aardappelen met schil in partjes, de wortels in dikke stukken van gelijke grootte en de ui in parten.",
                        "Meng alles in een kom met de olijfolie, de tijm, het paprikapoeder, zout en peper.",
                        "Verdeel de groenten in één laag over de bakplaat, zodat ze roosteren in plaats van stomen.",
                        "Rooster ze vijfentwintig minuten in het midden van de oven en keer ze halverwege om.",
                        "Rooster ze nog vijf minuten als ze nog niet goudbruin en knapperig zijn, en serveer ze meteen.",
                    ],
                    timers: [5: 25, 6: 5],
                    tip: "Kook de aardappelpartjes vijf minuten voor: dan zijn ze in de oven tien minuten eerder knapperig.",
                    allergens: []
                ),
            ],
            englishNames: [
                "Eieren": "eggs", "Aardappelen": "potatoes", "Boerenkool": "kale", "Spekjes": "bacon", "Jonge kaas": "young gouda cheese",
                "Wortels": "carrots", "Uien": "onions", "Pindakaas": "peanut butter", "Melk": "milk", "Roomboter": "butter",
                "Nootmuskaat": "nutmeg", "Zout en peper": "salt and pepper", "Volkorenbrood": "whole wheat bread", "Bieslook": "chives",
                "Ketjap manis": "sweet soy sauce", "Knoflook": "garlic", "Sambal oelek": "sambal oelek", "Zonnebloemolie": "sunflower oil",
                "Olijfolie": "olive oil", "Gedroogde tijm": "dried thyme", "Paprikapoeder": "paprika",
            ]
        ),
    ]
}

/// The words of synthetic journals: plausible sentences a teenager in care might write, in a few
/// languages (young people write in theirs, and the journal's full-text search is the
/// language-neutral 'simple' configuration), names, tags and agency names. All fictional.
enum SeedText {
    struct Language {
        var code: String
        var sentences: [String]
        var captions: [String]
    }

    /// `{friend}`, `{place}`, `{thing}` and `{adult}` are filled in from the lists below.
    static let english = Language(
        code: "en",
        sentences: [
            "Had a really good day at school today.",
            "Maths was so boring, I nearly fell asleep.",
            "{friend} and me walked to {place} after school.",
            "I had contact with my mum today and it was okay I guess.",
            "Contact got cancelled again and I am really annoyed about it.",
            "Football practice was brilliant, I scored twice.",
            "We lost the football match but the coach said I played well.",
            "I can't stop thinking about the review meeting next week.",
            "My social worker came round and we talked about college.",
            "{adult} made my favourite tea tonight, pasta bake.",
            "I stayed in my room most of the evening listening to music.",
            "Got a new game and played it with {friend} online until late.",
            "I feel like nobody listens to me at school.",
            "Today I felt calm for the first time in ages.",
            "I'm worried about my little brother, I haven't seen him for weeks.",
            "Went to {place} with my foster family, it was actually fun.",
            "I got a merit for my English essay!",
            "Couldn't sleep last night, my head was too busy.",
            "The dog jumped on my bed this morning and woke me up.",
            "I want to learn guitar properly this year.",
            "Exams start soon and I am stressed about revision.",
            "{friend} said something mean and I don't know if we're still friends.",
            "We made pancakes and I flipped one onto the floor.",
            "I'm proud of myself for going to the dentist on my own.",
            "Had an argument with {adult} about my phone, then we sorted it out.",
            "It rained all day so we watched films.",
            "I started a new drawing of {thing}.",
            "My birthday is coming up and I want a small party.",
            "I miss my old school and my old friends.",
            "Today was hard but I got through it.",
            "I helped {adult} in the garden and planted some seeds.",
            "Swimming was cold but I did ten lengths.",
            "I don't want to talk about it, I just want to write it down.",
            "I'm looking forward to the trip to {place} at half term.",
            "Got my hair cut and I actually like it.",
            "I was late for the bus again.",
            "Drama club was amazing, I got a speaking part.",
            "I made a playlist for when I feel sad.",
            "My key worker said I am doing really well.",
            "I wish I could see my nan more often.",
        ],
        captions: [
            "Look at this!", "My drawing of {thing}.", "Me and {friend} at {place}.", "Listen to this.",
            "The view from {place}.", "I made this today.", "A voice note because I couldn't type it.",
            "Our dog being silly.", "Sunset from my window.", "Football training clip.",
        ])

    static let french = Language(
        code: "fr",
        sentences: [
            "Aujourd'hui j'ai passé une bonne journée au collège.",
            "Je suis fatigué et je n'ai pas envie de parler.",
            "Le match de football était génial, on a gagné.",
            "J'ai vu ma mère ce week-end, c'était bizarre mais bien.",
            "Je m'inquiète pour les examens de la semaine prochaine.",
            "Ma famille d'accueil a fait une crêpe party ce soir.",
            "J'ai dessiné pendant toute l'après-midi.",
            "Personne ne m'écoute vraiment à l'école.",
            "Je suis fier de moi parce que j'ai fini mon projet.",
            "Il a plu toute la journée alors on a regardé des films.",
        ],
        captions: ["Regarde mon dessin.", "Une note vocale.", "Le parc près de chez moi."])

    static let spanish = Language(
        code: "es",
        sentences: [
            "Hoy fue un día muy largo en el instituto.",
            "Echo de menos a mi hermana pequeña.",
            "El partido de fútbol salió genial, marqué un gol.",
            "Mi trabajadora social vino a verme y hablamos del futuro.",
            "No podía dormir porque estaba pensando en muchas cosas.",
            "Fuimos a la playa con mi familia de acogida.",
            "Estoy nervioso por los exámenes.",
            "Hoy me siento tranquilo y contento.",
            "Escuché música toda la tarde en mi habitación.",
            "Quiero aprender a tocar la guitarra.",
        ],
        captions: ["Mi dibujo de hoy.", "Una nota de voz.", "Mira esto."])

    static let polish = Language(
        code: "pl",
        sentences: [
            "Dzisiaj w szkole było całkiem dobrze.",
            "Tęsknię za moją babcią.",
            "Graliśmy w piłkę nożną po lekcjach.",
            "Nie mogłem spać, bo za dużo myślałem.",
            "Jestem dumny, że zdałem test z matematyki.",
            "Wieczorem oglądaliśmy film z rodziną zastępczą.",
            "Boję się spotkania w przyszłym tygodniu.",
            "Dzisiaj czuję się spokojnie.",
        ],
        captions: ["Mój rysunek.", "Notatka głosowa.", "Zobacz to."])

    static let welsh = Language(
        code: "cy",
        sentences: [
            "Ces i ddiwrnod da yn yr ysgol heddiw.",
            "Dw i wedi blino ac eisiau cysgu.",
            "Roedd y gêm bêl-droed yn wych.",
            "Dw i'n poeni am yr arholiadau.",
            "Aethon ni i'r traeth gyda'r teulu maeth.",
            "Dw i'n hapus heddiw.",
        ],
        captions: ["Fy llun i.", "Nodyn llais."])

    static let languages = [english, french, spanish, polish, welsh]

    static let friends = ["Jay", "Mia", "Kai", "Leah", "Tom", "Aisha", "Ollie", "Zara", "Noah", "Ellie", "Sam", "Priya"]
    static let places = [
        "the park", "town", "the skate park", "the beach", "the cinema", "the library", "the youth club",
        "the shops", "Nando's", "the swimming pool", "the canal", "the football pitch",
    ]
    static let things = ["a dragon", "my room", "a fox", "the sea", "my dream house", "a galaxy", "our cat", "trainers"]
    static let adults = ["My foster carer", "Sue", "Dave", "My carer", "Auntie Pat", "My key worker"]

    static let firstNames = [
        "Maya", "Liam", "Amelia", "Oscar", "Isla", "Jayden", "Ruby", "Kacper", "Chloe", "Tyler", "Freya", "Mohammed",
        "Lily", "Reece", "Grace", "Callum", "Evie", "Dylan", "Nia", "Lucas", "Amira", "Harvey", "Poppy", "Ethan",
        "Zofia", "Rhys", "Leila", "Mason", "Ava", "Finley", "Sienna", "Kian",
    ]
    static let lastNames = [
        "Smith", "Jones", "Williams", "Taylor", "Brown", "Davies", "Evans", "Wilson", "Khan", "Nowak", "Roberts",
        "Patel", "Hughes", "Walker", "Wright", "Thompson", "Ahmed", "Green", "Lewis", "Morgan",
    ]

    /// Tags young people add of their own, besides their agency's suggestions: lower-case
    /// letters and spaces, so that `entries.tag_names` (ordered by ICU's lower case) sorts them
    /// as plain bytes do.
    static let personalTags = [
        "drama club", "nan", "birthday", "exams", "art", "swimming", "guitar", "dog", "bus", "youth club", "cooking",
        "sleep", "brother", "sister", "holiday", "dreams", "anime", "skateboarding", "running", "poems",
    ]

    static let agencies = [
        "Riverside Fostering", "Harbour Children's Services", "Oakfield Family Placements", "Hillcrest Care Partnership",
        "Brightwater Fostering", "Northgate Children's Trust", "Meadowbank Family Care", "Westmoor Fostering",
        "Cedar Lane Children's Services", "Seaview Family Placements",
    ]

    static let backgrounds = ["#ffd6e0", "#d6f0ff", "#fff3c4", "#e3ffd6", "#eadcff", "stars", "hearts", "clouds", "waves"]

    static let moodIconSets: [[(emoji: String, label: String)]] = [
        [("😄", "Happy"), ("🙂", "Okay"), ("😌", "Calm"), ("😴", "Tired"), ("😟", "Worried"), ("😢", "Sad"),
         ("😠", "Angry"), ("😕", "Confused")],
        [("🤩", "Great"), ("😊", "Good"), ("😐", "Meh"), ("😔", "Down"), ("😤", "Frustrated"), ("😰", "Anxious")],
        [("☀️", "Sunny"), ("⛅", "Cloudy"), ("🌧️", "Rainy"), ("⛈️", "Stormy"), ("🌈", "Hopeful")],
    ]

    static let suggestedTags = [
        "school", "college", "family time", "contact", "friends", "foster family", "football", "music", "gaming", "pets",
        "health", "achievement", "worries", "plans",
    ]

    static let prompts = [
        "What made you smile today?", "Is there something you would like your social worker to know?",
        "Who helped you today, and how?", "What is something you are looking forward to?",
        "Describe a place where you feel safe.", "What is something you did today that you are proud of?",
    ]

    static let timeZones = ["Europe/London", "Europe/London", "Europe/London", "Europe/Dublin"]

    /// Every seeded tenant's `rewards`: the demo's kind of rules, a small catalogue, and an
    /// achievement of each kind (what the rewards module's seed earns by).
    static let rewards = """
        rewards:
          rules:
            - { id: daily-check-in, on: checkIn, stars: 1, dailyLimit: 1 }
            - { id: new-entry, on: entryCreated, stars: 2, dailyLimit: 3 }
            - { id: shared-entry, on: entryShared, stars: 1, dailyLimit: 2 }
            - { id: week-streak, on: streak, days: 7, stars: 5 }
          unlockables:
            - { id: theme-classic, kind: theme, name: Classic colours, stars: 0 }
            - { id: theme-sunset, kind: theme, name: Sunset colours, stars: 10 }
            - { id: avatar-fox, kind: avatar, name: Fox avatar, stars: 15 }
            - { id: sticker-star, kind: sticker, name: Gold star sticker, stars: 5 }
          achievements:
            - { id: first-entry, name: First entry, description: You wrote your first entry., icon: "✏️", condition: { entries: 1 }, stars: 2 }
            - { id: ten-entries, name: Storyteller, description: You wrote 10 entries., icon: "📖", condition: { entries: 10 }, stars: 5 }
            - { id: first-drawing, name: Artist, description: You made your first drawing., icon: "🎨", condition: { entries: 1, kind: drawing } }
            - { id: seven-check-ins, name: Regular, description: You checked in on 7 days., icon: "📅", condition: { checkIns: 7 }, stars: 3 }
            - { id: three-day-streak, name: On a roll, description: You checked in 3 days in a row., icon: "🔥", condition: { streak: 3 } }
            - { id: first-share, name: Speaking up, description: You shared an entry., icon: "🤝", condition: { shares: 1 } }
            - { id: five-tags, name: Organiser, description: You used 5 different tags., icon: "🏷️", condition: { distinctTags: 5 } }
        """

    /// A sentence of `language` with its blanks filled.
    static func sentence(_ template: String, _ random: inout SeedRandom) -> String {
        guard template.contains("{") else { return template }
        var text = template
        for (blank, words) in [("{friend}", friends), ("{place}", places), ("{thing}", things), ("{adult}", adults)]
        where text.contains(blank) {
            text = text.replacingOccurrences(of: blank, with: random.pick(words))
        }
        return text
    }
}

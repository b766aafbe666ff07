//! Every diagnostic code, in one place: its level, a title and an explanation.
//!
//! A code never changes meaning once released; a retired code is not reused. `sow explain
//! --code E0301` prints an explanation, and `docs/diagnostics.md` lists them all (written by
//! [`markdown`]; a test keeps it current).
//!
//! Numbering: E00xx the file's structure (TOML, keys, types, values), E01xx the board and the
//! clauses, E02xx options, E03xx expressions, E04xx game records and moves; W0xxx warnings.

use super::Level;

macro_rules! codes {
    ($( $name:ident $id:literal $level:ident $title:literal $text:literal )*) => {
        /// A stable diagnostic code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Code { $( #[doc = $title] $name, )* }

        impl Code {
            /// Every code, in the order of the reference.
            pub const ALL: &'static [Code] = &[ $( Code::$name, )* ];

            /// The code as printed: `E0301`.
            pub fn id(self) -> &'static str {
                match self { $( Code::$name => $id, )* }
            }

            /// Whether diagnostics of this code are errors or warnings.
            pub fn level(self) -> Level {
                match self { $( Code::$name => Level::$level, )* }
            }

            /// What the code is about, in a line.
            pub fn title(self) -> &'static str {
                match self { $( Code::$name => $title, )* }
            }

            /// What it means and what to do, in a paragraph or two (Markdown).
            pub fn explanation(self) -> &'static str {
                match self { $( Code::$name => $text, )* }
            }
        }
    };
}

codes! {
    TomlSyntax "E0001" Error "The file is not valid TOML"
"The text breaks the TOML syntax: an unclosed string or table header, a missing `=`, a value
TOML does not know. Every syntax error is reported, each at its place.

An expression written in a double-quoted string ends at its first inner double quote:
write expressions in literal strings, `when = 'option.x == \"a\"'`."

    DuplicateKey "E0002" Error "A key or table is defined twice"
"TOML allows each key once in a table, and each `[table]` header once. The message names
the key and points at both places: remove one, or rename it (`[[capture]]` starts a new
clause each time it is written; `[capture]` does not)."

    UnknownKey "E0003" Error "A key the format does not have"
"Every table of a ruleset accepts only the keys of the format (`sow schema` lists them, and
the README's reference). A misspelt key is never ignored: the message says which table it is
in and suggests the nearest key."

    WrongType "E0004" Error "A value of the wrong type"
"Each key takes one kind of value: a whole number (`holes = 6`), a string
(`direction = \"ccw\"`), a list, a table. A number written in quotes (`seeds = \"4\"`) is a
string; write it without them."

    UnknownValue "E0005" Error "A value that is not one of the key's words"
"Keys such as `direction`, `stores` and `result` take one of a few words. The message lists
them and suggests the nearest: `direction = \"ccw\"`, not `\"counterclockwise\"`."

    MissingKey "E0006" Error "A required key or table is missing"
"Some keys and tables must be given: `format`, `name`, `[board]` (with `rows`, `holes` and
`seeds`), `[sowing]` (with `direction`), `[end]` (with `no_move`), and each clause's own
required keys. The message names what is missing and where it belongs."

    OutOfRange "E0007" Error "A number outside the range of its key"
"A count cannot be negative, and no count may exceed what sow can hold
(4294967295 for a 32-bit count). The board's own limits have codes of their own (E0103,
E0104)."

    InvalidValue "E0008" Error "A value the format cannot read"
"The value has the right type but not a form the key accepts, for example a seed table with
both `option` and `south`/`north`. The message says what was expected."

    UnknownFormat "E0101" Error "A format version this sow does not know"
"`format` versions the ruleset file; this version of sow reads `format = 1`."

    TooManyClauses "E0102" Error "More rule clauses than the limit"
"Legality, capture, extra-turn and `[[end.when]]` clauses count together against the limit of
1000 clauses: no documented game needs more than a few dozen."

    BoardRows "E0103" Error "A board with a number of rows sow cannot play"
"A board has 2 rows (one per player), 3 (each player's row and half the middle row), 4 (two per
player), or 1: a ring of holes."

    BoardHoles "E0104" Error "A row with too few or too many holes"
"A row holds from 1 to 63 holes, and a board at most 126 holes in all; a ring from 2 to 126. A
three-row board's rows hold an even number of holes, so that each player owns half the middle
row."

    TrackStoreRows "E0105" Error "Stores on the track on a board that is not of two rows"
"Stores on the sowing track (`stores = \"track\"`) need a two-row board; rings and boards of
three or four rows keep captures in reserves (`stores = \"reserve\"`)."

    StoreSideWithoutStore "E0106" Error "`store_side` on a board with no store on the track"
"`store_side` says at which end of its owner's row a store on the track stands; with
`stores = \"reserve\"` there is none. Add `stores = \"track\"` or remove `store_side`."

    LayoutLength "E0107" Error "A seed layout with the wrong number of holes"
"`seeds = { south = [...], north = [...] }` gives one count for each of a player's holes, in
the player's own numbering: each list must be as long as a player has holes."

    SeedTotal "E0108" Error "A board that starts with no seeds or too many"
"The board must start with at most 60,000 seeds, so that no count can overflow, and the game
with at least 1: an empty board is a start only where the players hold seeds (`[board] held`),
to enter or lay out."

    MaxLaps "E0109" Error "`max_laps` outside its range"
"`max_laps` caps the laps of one move as a rule of the game: from 1 to one less than the
engine's own safety limit of 1,000,000 laps."

    RefillLayout "E0110" Error "`refill` given as a layout"
"`[rounds] refill` is one number of seeds for every hole refilled, not a per-hole layout."

    RefillRange "E0111" Error "`refill` outside its range"
"A refill puts from 1 to 60,000 seeds in each hole."

    DuplicateClauseName "E0112" Error "Two clauses of one kind with the same name"
"Traces name the clause that fired, so two capture clauses must not share a name. Both
places are shown."

    LegalWithoutRequire "E0113" Error "A legality clause that requires nothing"
"A `[[legal]]` clause needs `require` (checked before the move) or `require_after` (checked
on a copy of the position after it), or both; or, to prefer some moves over the others,
`prefer` or `prefer_after`."

    CaptureTakesNothing "E0114" Error "A capture clause with an empty `take`"
"`take` lists the holes whose seeds are taken, e.g. `take = ['opposite(last)']`."

    ThenNotAtLapEnd "E0115" Error "`then` on a capture clause not tried at a lap's end"
"`then` (`continue`, `end`, `sow`) says what a move does after a lap-end capture; it applies
only to clauses with `at = \"lap_end\"`."

    RemovedThenSow "E0116" Error "Captured seeds both removed and sown again"
"`to = \"removed\"` takes the seeds out of the game and `then = \"sow\"` sows them again: say
who takes them (`mover`, `owner`, `opponent`), or remove `then = \"sow\"`."

    EndingRequired "E0117" Error "An ending that cannot be left out"
"`no_move` and `endless_move` say how play ends when they happen; they cannot be disabled.
Give the outcome you want with `remaining` and `result` instead."

    VarName "E0118" Error "A variable named like a name of the language"
"A variable is read by its name in expressions, so it cannot take a name the language already
has (`seeds`, `mover`, `direction`, ...): choose another. Variable names are lowercase words
with underscores."

    TooManyVars "E0119" Error "More variables than the position holds"
"The rules' variables take 24 slots at most (a variable each player has takes one a player; a
set of holes takes four): no documented game needs more than a few."

    EffectSet "E0120" Error "An effect sets something that is not a variable of the right kind"
"`set = { NAME = 'expression' }` gives a declared variable (`[vars.NAME]`) a new value: a
number for a number, a condition for a flag, a direction for a direction. A set of holes
(`kind = \"holes\"`) is changed by `mark = { NAME = 'hole' }` and `unmark`, not by `set`; an
effect that changes nothing is refused, and so is `player` (whose own variables change) on
an effect none of whose variables is declared `per_player`."

    EffectMoment "E0121" Error "An effect at a moment it cannot be tried"
"Effects are tried at `drop`, `lap_end` or `move_end`, after the capture clauses of that
moment."

    RelayFrom "E0122" Error "A relay that names no hole to lift"
"`[sowing.relay]` lifts a hole for the next lap: say which with `from = \"landing\"` (the
hole the last seed fell into), `from = \"next\"` (the one after it), or `hole = '...'` (an
expression over `last`)."

    ResowWithoutSow "E0123" Error "`sow_after`, `sow_direction` or `lift_also` on a capture that does not sow"
"`sow_after`, `sow_direction` and `lift_also` say how captured seeds are sown again: they
belong to capture clauses with `then = \"sow\"`."

    LegalMixed "E0124" Error "A legality clause that both requires and prefers"
"A `[[legal]]` clause either restricts each move on its own (`require`, `require_after`) or
prefers, among all the legal moves, those with a property (`prefer`, `prefer_after`: when some
move has it, only those moves are legal). Write one clause of each kind."

    SetUnknownHole "E0125" Error "A named set that lists a hole the board does not have"
"`[board.sets]` lists holes by their labels (`s1`, `n12`): each must be a hole of this
board. Stores are not holes."

    PlayersInvalid "E0126" Error "A list of players the format cannot take"
"`[turns] players` names 2 to 6 players, in turn order, each a different lowercase word
(letters, digits and `_`, starting with a letter; not `nobody`). Without the key the
players are `south` and `north`."

    OwnersInvalid "E0127" Error "An owners table that does not give every hole one owner"
"`[board] owners` gives each player (by the names of `[turns] players`) their holes, in their
own numbering: `west = [\"s3\", \"s4\", \"s5\", \"n3\", \"n4\", \"n5\"]`. Every hole of the
board is listed exactly once or is neutral, every player has at least one hole, and the table
is for boards of one to three rows. With more than two players the table is needed: the rows
alone do not say whose holes are whose. Neutral holes (`[board] neutral`) are nobody's: a hole
is a player's or neutral, not both; in a match they keep their seeds from round to round, so
they cannot go with holes that change hands between rounds (`win_holes`, `rotate_owners`)."

    SeatsUnsupported "E0128" Error "Something that needs exactly two players, in a game of more"
"Some words of the language name the one other player of a two-player game: `opponent` in
expressions, `remaining = \"opponent\"`, `result = \"mover_loses\"`, stores on the track.
With three or more players they would not say who is meant: name the player instead
(`owner(h)`, `mover`), keep captures in reserves (`stores = \"reserve\"`), or use
`result = \"most_seeds\"`."

    UnknownPlayer "E0129" Error "A name that is not one of the players"
"Where a ruleset names a player (`[start] first`, an option's value for it), the name must be
one of `[turns] players` (by default `south` and `north`)."

    RedirectTarget "E0130" Error "A redirect that says no place, or two, for the seed"
"`[[sowing.redirect]]` sends a seed due into `here` elsewhere: either out of play, `to =
\"removed\"`, or into another hole, `hole = '...'` (an expression over `here`, such as
`hole(opponent, 1)`), or to what a player holds, `player = '...'`. Give exactly one of
them."

    EntryChoiceTooLarge "E0131" Error "An entry whose size the mover chooses, on too large a board"
"`[entry] choose = true` lists one move for each number of seeds the mover may enter, from one
to all they hold; the list of legal moves has room for 64 such numbers, so the board may hold
at most 64 seeds in all. Give the entry a fixed size (`choose = false`, with `seeds = '...'`),
or start the board with fewer seeds."

    RoundEndMisplaced "E0132" Error "A clause at the round's end that cannot be there"
"`at = \"round_end\"` is for effects of a match of rounds (`[rounds]`): once a round has ended
and been scored, each player still in the match in turn is `mover`, and `round_winner` names
the round's winner, so an effect can count wins (`set = { streak = 'streak(mover) + 1' }`).
Captures are tried during a move (`drop`, `lap_end`, `move_end`), and a game of one round has
no round's end between rounds."

    WinHolesUnsupported "E0133" Error "Holes won at the refill, with settings they cannot go with"
"`[rounds] win_holes = true` has every player fill their own holes first, then the players
with seeds left fill the holes nobody filled, going on round the board from their own holes,
and own what they fill for the round. That needs one circuit of every hole that all players
sow (a board of one or two rows), a refill from one end of a player's holes (`refill_from =
\"left\"` or `\"right\"`), every player filling as many holes as their seeds allow (not
`holes_filled = \"poorest\"`), and owners found anew at each refill (not `rotate_owners`)."

    OptionalDropCapture "E0134" Error "An optional capture tried at each seed's drop"
"`optional = true` lets the mover decline a capture: the move stops where the capture is on
offer, and the mover answers `take` or `leave`. A move can stop there at a lap's end or at the
move's end (`at = \"lap_end\"` or `\"move_end\"`), with no seeds in hand; a drop capture
is made in the middle of a lap, where it cannot. A capture after a seed put in the arrangement
before play (`at = \"put\"`) is not part of a move, and cannot be declined either."

    PutWithoutArrange "E0135" Error "A clause tried after a seed put, with no arrangement"
"`at = \"put\"` clauses are tried after each seed a player puts on the board in the
arrangement before play. Without an `[arrange]` table nobody puts a seed, so the clause would
never be tried: add `[arrange]`, or try the clause at `drop`, `lap_end` or `move_end`."

    PiecesUnsupported "E0136" Error "Pieces with settings they cannot go with"
"`[pieces.NAME]` declares one kind of piece unlike a seed; each player starts holding one and
puts it on the board in the arrangement (`[arrange] place`). A piece is sown with the whole
of its hole, and goes wherever its hole's seeds go; settings that lift part of a hole, send a
seed elsewhere than the hole it is due into, sow captured seeds again, or move holes and seeds
between players at the refill would leave a piece no defined place, so they are refused with
pieces. Keys that speak of pieces (`place`, `to = \"piece_holder\"`) need `[pieces]`."

    KeepNotAtDrop "E0137" Error "A capture that keeps what was just dropped, not at a drop"
"`keep = \"dropped\"` leaves the seed or piece just dropped in the hole it takes, and
`to = \"piece_holder\"` or `\"piece_owner\"` gives the seeds to the holder or first owner
of the piece just dropped: both speak of a drop, so the clause must be tried at each drop
(`at = \"drop\"`)."

    EntryStartAndSizeChosen "E0140" Error "An entry whose start and size the mover both chooses"
"An entry's `start` may be a set of holes, the mover choosing where the seeds go (`+1@s3`), or
its size may be the mover's (`choose = true`, `+3`), but not both: give the entry a fixed size
(`seeds = '...'`) or a start hole."

    ChoiceNotAtStop "E0139" Error "A capture whose hole the mover chooses, tried where a move cannot stop"
"`choose` lets the mover pick one hole of a set for a capture clause: the move stops there and
the mover's next ply names the hole (`take:n3`). A move can stop at a lap's end or at the
move's end (`at = \"lap_end\"` or `\"move_end\"`), with no seeds in hand; a drop capture is
made in the middle of a lap, and a capture after a seed put or picked up in the arrangement
ends that ply, so neither can stop for a choice."

    LandedOnAtStop "E0138" Error "Retired: `landed_on` in rules whose moves may stop"
"No longer reported. It refused `landed_on` in rules whose moves may stop for the mover's
decision (an optional capture, a capture whose hole the mover chooses, a relay the mover may
decline), because the move went on from the position, which did not keep what the lap's last
hole held before its last seed. The position now keeps it with the stopped move
(`stopped=...:LANDED`), so such rules may read it."

    PlayEndMisplaced "E0141" Error "A clause at play's end that cannot be there"
"`at = \"play_end\"` is for captures made once play has ended, before the ending shares out
the seeds left: each player still in play in turn is `mover`, and takes what the clause says
(the holes they won during play: `take_set = 'won(mover)'`). Play is over, so nobody can
choose or decline (`choose`, `optional`), nothing is sown again or claimed (`then`, `claim`),
and seeds cannot leave the game (`to = \"removed\"`: say so with the ending's `remaining`).
Effects are not tried at play's end; at the end of each round of a match, `round_end` is."

    IntoUnsupported "E0142" Error "Captured seeds put into a hole, with a setting they cannot go with"
"`into` puts the seeds a capture takes into a hole of the board instead of banking them: they
cannot also leave the game (`to = \"removed\"`), be sown again (`then = \"sow\"`) or make a
claim (`claim`, whose seeds go to the claimer), and with `[pieces]` a piece would have no
defined place. `to` still says whose capture it is, for the trace."

    RelayThenWithoutRelay "E0143" Error "A capture that goes on by the relay, in rules with no relay"
"`then = \"relay\"` makes the move go on by the relay clause after the capture, whatever the
relay's condition says (the capturing seed moving on from the landing hole, for instance): the
rules need a `[sowing.relay]` to say which hole the next lap lifts. A relay whose condition
never holds (`when = 'false'`) relays only after such captures."

    CaptureTaker "E0144" Error "A capture that says no taker, or two, for its seeds"
"A capture clause says who receives the seeds it takes: either a fixed taker, `to = \"mover\"`
(or `opponent`, `owner`, `removed`, a piece's holder or owner, or an option's value), or a
player expression read for each hole taken, `player = '...'`, with `hole` naming that hole
(`'owner(hole)'`, `'if(last_seed, mover, owner(hole))'`). Give exactly one of them."

    RoundStartMisplaced "E0145" Error "A clause at a round's start that cannot be there"
"`at = \"round_start\"` is for effects made once a round's board is laid out, before its
first move (the game's first round included): each player still in play in turn is `mover`,
and the effect sets variables or marks holes from the board as it stands. No move is being
made, so nothing is captured then: a capture clause cannot be tried there. Where the players
lay their seeds out themselves (`[arrange]`), the board is laid out by plies of the game, so
no moment comes between the layout and the first move: try the effect at `put` or at
`move_end` instead."

    SwapUnsupported "E0146" Error "The pie rule, on a board or with settings it cannot go with"
"`[turns] swap = true` lets the player who did not make a round's first ply exchange sides
with the first player at their first turn: the board turns round, each player's holes onto
the other's, store onto store: on two to four rows `s3` onto `n3` (or, where owners tables
make that no turn of the board, each player's k-th hole onto the other's), on a ring by as
many holes as carry each player's holes onto the other's. That needs a board that looks the same from both sides: two
players (E0128 says so for more), no neutral holes, as many holes each, a store for each or
for neither, and owners, circuits, facing holes and holes behind that the turn carries onto
each other (an owners table that gives the players holes of different shapes does not). Pieces
(`[pieces]`) and owners that change between rounds (`win_holes`, `rotate_owners`) keep
state the turn cannot carry, so they are refused beside it too."

    RaceUnsupported "E0147" Error "A racing opening beside rules it cannot go with"
"`[race]` makes each round's first ply every player sowing at once, one seed each a tick.
Each sowing is made one seed at a time beside the others, relaying and capturing by the
ruleset's clauses, and nobody can be asked anything in the middle of it. So the race cannot go
with the pie rule (`swap`), an entry (`[entry]`), pieces, a direction the mover chooses, skip or redirect
clauses, a partial first lift or gathered holes (`lift`, `gather`), clauses that ask the
mover (optional or chosen captures, optional relays, relays lifting part of a hole), claims,
or variables of scope `move` or `lap`, which the sowings would share. The check reads the
rules as the options in force make them."

    OptionDuplicateValue "E0201" Error "An option lists a value twice"
"Each value of an option's `values` must be different."

    OptionNoValues "E0202" Error "An option with no values"
"An option's `values` lists the readings the documents allow: at least one."

    OptionDefault "E0203" Error "An option's default is not one of its values"
"`default` must be one of the option's `values`."

    UnknownOption "E0204" Error "An option the ruleset does not declare"
"`--option NAME=VALUE` and `option NAME = VALUE` in a record set options declared under
`[options.NAME]`; `sow explain RULESET` lists them."

    OptionValue "E0205" Error "A value an option does not have"
"An option takes one of its declared `values`; the message lists them."

    SettingUnknownOption "E0206" Error "A setting names an option that is not declared"
"`{ option = \"NAME\" }` takes a setting's value from the option `NAME`, which must be
declared under `[options.NAME]`."

    OptionValueInvalidForSetting "E0207" Error "An option's value is not a valid value of the setting"
"Every value of the option must be a valid value of the setting that reads it (not only the
default). Give the option the setting's own words, or translate them with
`map = { value = setting, ... }`."

    OptionMapMissing "E0208" Error "A setting's `map` has no entry for a value of its option"
"With `map`, every value of the option must be translated."

    OptionMapExtra "E0209" Error "A setting's `map` names a value its option does not have"
"Each key of `map` must be one of the option's values."

    OptionNotCount "E0210" Error "A count taken from an option whose values are not numbers"
"Seeds, refills and `max_laps` taken from an option need every value of the option to be a
whole number, such as `values = [\"4\", \"5\"]`."

    ExprSyntax "E0301" Error "An expression that does not parse"
"The rules language is described in the README and `grammar/expr.pest`. The message lists
what could come at the place: an operator, a closing `)` or `]`, a `,`. It is `==` for
equality (not `=`), and `and`, `or`, `not` (not `&&`, `||`, `!`)."

    ExprTooLong "E0302" Error "An expression longer than the limit"
"An expression is at most 4096 bytes."

    ExprTooDeep "E0303" Error "An expression nested deeper than the limit"
"Brackets and prefix operators nest at most 32 levels deep."

    ExprNumberTooLarge "E0304" Error "A number too large for the language"
"Numbers are whole and at most 9223372036854775807."

    ExprType "E0305" Error "A value of the wrong type in an expression"
"Expressions are typed: a hole is not a number (`seeds(last) == 1`, not `last == 1`), a
condition is not a number, a player is not a hole. The message says what was expected and
what was found, and suggests the usual fix."

    ExprUnknownName "E0306" Error "A name the language does not have"
"The names are listed in the README (`here`, `last`, `origin`, `mover`, `holes`, ...); the
message suggests the nearest."

    ExprUnknownFunction "E0307" Error "A function the language does not have"
"The functions are listed in the README (`seeds(h)`, `opposite(h)`, `next(h)`, ...); the
message suggests the nearest."

    ExprFunctionWithoutArguments "E0308" Error "A function written without its arguments"
"A function is called with its arguments in brackets: `seeds(last)`."

    ExprArity "E0309" Error "A function called with the wrong number of arguments"
"Each function takes a fixed number of arguments: `hole(p, k)` two, the others one."

    ExprNoMeaningHere "E0310" Error "A name read where it has no meaning"
"Some names mean something only at some moments: `last` once a lap has ended, `hole` in a
chain, `last_seed` at a drop, `origin` where a move or a hole tried stands (not in endings,
nor where an entry or an arrangement's end is read). The message says where the name can be
read."

    ExprUnknownOption "E0311" Error "An expression reads an option that is not declared"
"`option.NAME` reads the option declared under `[options.NAME]`."

    ExprOptionValue "E0312" Error "An option compared with a value it does not have"
"`option.NAME == \"value\"` must name one of the option's values, in double quotes."

    ExprIncomparable "E0313" Error "Two values that cannot be compared"
"Numbers compare with each other, holes and players with `==` and `!=`, and an option with one
of its values in double quotes (`option.seeds == \"4\"`)."

    ExprListRange "E0314" Error "A number outside 0 to 127 in a list after `in`"
"`x in [2, 3]` tests whole numbers from 0 to 127."

    ExprListNotConstant "E0315" Error "A list after `in` that holds a value that changes"
"The list after `in` holds numbers known when the game starts: numbers, `holes`, and
arithmetic on them. Compare values that change with `==` and join them with `or`."

    ExprNoSuchHole "E0316" Error "A hole number the board does not have"
"`hole(p, k)` names player p's hole k, from 1 to the holes a player has."

    ExprNoHoleNumbered "E0317" Error "A comparison of `number(h)` with a number no hole has"
"`number(h)` is from 1 to the holes a player has (0 for no hole)."

    ExprInternal "E0318" Error "An internal error of sow"
"This should not happen: please report it with the ruleset that caused it."

    RecordLine "E0401" Error "A record line that is not `key = value`"
"A game record is made of lines `ruleset = NAME`, `fingerprint = sha256:...`,
`option NAME = VALUE`, `position = ...` and `moves = ...`; `#` starts a comment."

    RecordKeyName "E0402" Error "A record key written with a name it does not take"
"Only `option` takes a name before the `=`: `option NAME = VALUE`."

    RecordNoValue "E0403" Error "A record line with nothing after `=`"
"Each line gives a value after its `=`."

    RecordRulesetTwice "E0404" Error "A record names its ruleset twice"
"`ruleset` is given once."

    RecordFingerprintTwice "E0405" Error "A record gives its fingerprint twice"
"`fingerprint` is given at most once."

    RecordFingerprint "E0406" Error "A fingerprint that is not `sha256:` and 64 hexadecimal digits"
"The fingerprint is the SHA-256 of the ruleset's text, as `sow play --record` writes it."

    RecordPositionTwice "E0407" Error "A record gives its starting position twice"
"`position` is given at most once."

    RecordTooManyMoves "E0408" Error "A record with more moves than the limit"
"A record holds at most 100,000 moves."

    RecordNotAMove "E0409" Error "A move that is not a side's letter and a hole number"
"A move is written `s3` (South's third hole) or `n5`."

    RecordOptionSyntax "E0410" Error "An option line not written `option NAME = VALUE`"
"Each option has a line of its own: `option NAME = VALUE`."

    RecordOptionValue "E0411" Error "An option line whose value is not one word"
"An option's value is a single word, one of its declared values."

    RecordOptionTwice "E0412" Error "An option set twice in a record"
"Each option is set at most once."

    RecordUnknownKey "E0413" Error "A record key sow does not know"
"The keys are `ruleset`, `fingerprint`, `option`, `position` and `moves`."

    RecordNoRuleset "E0414" Error "A record that names no ruleset"
"Add a line `ruleset = NAME`: a shipped name from `sow list`, or a path from the record's
folder."

    BadPosition "E0415" Error "A set-up position that cannot be read or reached"
"A position is written `S[3 1 0 0 0 14 0] N[14 2 14 14 1 14 2] S*=15 N*=4 north` (README,
Moves, positions and records); the message says what is wrong in it."

    RecordRuleset "E0416" Error "A record's ruleset cannot be loaded"
"The ruleset a record names could not be found or read."

    IllegalMove "E0417" Error "A move that cannot be played"
"The move is illegal in the position reached, is made by the wrong side, or comes after the
end of the game; the legal moves are listed."

    OptionNeverUsed "W0001" Warning "An option that nothing reads"
"An option declared under `[options]` that no expression (`option.NAME`) and no setting
(`{ option = \"NAME\" }`) reads changes nothing."

    NeverHolds "W0002" Warning "A condition that can never hold"
"The condition is false whatever the options and the position: the clause never applies.
A comparison such as `seeds(last) == -1` can never hold, since a count is never negative."

    RelayWithoutEndless "W0003" Warning "Relay sowing with no `endless_move` outcome"
"Relay sowing can go on forever. Without `[end] endless_move`, each player takes their own
row and most seeds wins; say so explicitly if that is the rule."

    StoreTestWithoutStores "W0004" Warning "`is_store` on a board with no stores on the track"
"`is_store(h)` is always false when captured seeds go to reserves beside the board."

    NameNote "W0005" Warning "A note on how a name or file was read"
"A shipped name always means the shipped ruleset (write `./NAME` for a file of that name); a
record may name its ruleset from the folder it was played in."

    RulesetChanged "W0006" Warning "A record's ruleset has changed since the record was made"
"The ruleset's fingerprint no longer matches the record's: the game is replayed under the
ruleset as it is now, and may go differently."

    SettingWithoutEffect "W0007" Warning "A setting that another setting makes meaningless"
"`[rounds] matching_hole` says what the other players put in the hole matching the poorest
player's partial last hole: it applies only with `holes_filled = \"poorest\"` and
`last_hole = \"partial\"`."
}

impl Code {
    /// The code written `E0301` (any case).
    pub fn parse(text: &str) -> Option<Code> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.id().eq_ignore_ascii_case(text.trim()))
    }
}

/// The reference of every code, as `docs/diagnostics.md` holds it.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Diagnostics\n\n\
         Every diagnostic `sow check` (and `sow lsp`, `sow replay`) reports has a stable code.\n\
         `sow explain --code E0301` prints one of these entries. This page is written by\n\
         `sow::diagnostic::codes::markdown()`; `tests/diagnostics.rs` fails when it is stale\n\
         (`SOW_WRITE_DOCS=1 cargo test --test diagnostics` rewrites it).\n\n\
         E00xx: the file's structure (TOML, keys, types, values). E01xx: the board and the\n\
         clauses. E02xx: options. E03xx: expressions. E04xx: game records and moves.\n\
         W0xxx: warnings (`sow check --deny-warnings` counts them as problems).\n\n",
    );
    out.push_str("| code | level | what |\n|---|---|---|\n");
    for c in Code::ALL {
        out.push_str(&format!(
            "| [{id}](#{lower}) | {level} | {title} |\n",
            id = c.id(),
            lower = c.id().to_lowercase(),
            level = level_word(c.level()),
            title = c.title()
        ));
    }
    for c in Code::ALL {
        out.push_str(&format!(
            "\n## {}\n\n{}: {}.\n\n{}\n",
            c.id(),
            capitalised(level_word(c.level())),
            c.title(),
            c.explanation()
        ));
    }
    out
}

fn level_word(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warning => "warning",
    }
}

fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_match_their_level() {
        let mut seen = std::collections::BTreeSet::new();
        for c in Code::ALL {
            assert!(seen.insert(c.id()), "{} twice", c.id());
            let letter = if c.level() == Level::Error { 'E' } else { 'W' };
            assert!(c.id().starts_with(letter), "{}", c.id());
            assert_eq!(Code::parse(&c.id().to_lowercase()), Some(*c));
        }
    }
}

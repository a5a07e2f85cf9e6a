/*
 * Optional C accelerator for ``gammon-kiosk check`` (see kiosk/rules/fast.py): the verdict of
 * kiosk.rules.verdict.find_play and the closest plays of kiosk.rules.verdict.closest_plays, from
 * two GNU Backgammon Position IDs and a roll, in the notation of kiosk.rules.notation.format_play.
 *
 * It mirrors the pure-Python rules core step for step (same move generator, same search orders),
 * so that its answers are identical; tests/rules_speedups/ checks that on random play.
 * Rules (backgammon-rules.txt, "Movement of the checkers", "Bearing off"): a checker moves by the
 * exact number of a die to a point not held by two or more opposing checkers, hitting a blot;
 * checkers on the bar enter first; bearing off only with all fifteen home, from the point of the
 * die or from the highest point when the die is higher; both dice are played when possible, else
 * the larger when it can be; a double is played four times, as many as possible.
 *
 * Anything the fast path does not decide (an invalid ID, a die out of range, an XGID, a position
 * with more nearest plays than the buffers hold) is answered with None: the caller then runs the
 * pure-Python code, which produces the exact error message or verdict.
 *
 * Boards are 26 counts indexed by pips to go in their owner's numbering: 0 off, 1..24 the points,
 * 25 the bar; the opponent's point p is the mover's point 25 - p.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 26
#define BAR 25
#define OFF 0
#define CHECKERS 15
#define MAX_DICE 4
#define BOARD_SIZE 32 /* SLOTS padded with zeros, for whole-word loops */

typedef unsigned char Count; /* checkers on a slot: 0..15 */

typedef struct {
    Count mover[BOARD_SIZE]; /* the player on roll */
    Count opponent[BOARD_SIZE];
} Board;

typedef struct {
    int source;
    int target;
    int hit;
} Move;

/* ------------------------------------------------------------ Position IDs (kiosk.rules.ids) */

#define ID_LENGTH 14

static int base64_value(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/*
 * Decode a Position ID into ``board`` (player on roll as ``mover``). Returns 0, or -1 for any text
 * that decode_position_id might reject (it then gives the message): a length other than 14, a
 * character outside the base64 alphabet, more than 15 checkers of a side on the board, bits after
 * the last checker, both colours on a point, both sides borne off. As there, the 4 bits of the
 * last character beyond the 80 of the key are ignored.
 */
static int decode_id(const char *chars, Py_ssize_t length, Board *board)
{
    if (length != ID_LENGTH) return -1;
    /* Base64: each 4 characters (6 bits each, most significant first) give 3 bytes; the 14
     * characters give the 10 bytes of the key, and 4 more bits that are ignored. */
    unsigned values[ID_LENGTH + 2] = {0};
    unsigned char key[12];
    for (int i = 0; i < ID_LENGTH; i++) {
        int value = base64_value(chars[i]);
        if (value < 0) return -1;
        values[i] = (unsigned)value;
    }
    for (int group = 0; group < 4; group++) {
        const unsigned *four = values + 4 * group;
        unsigned word = four[0] << 18 | four[1] << 12 | four[2] << 6 | four[3];
        key[3 * group] = (unsigned char)(word >> 16);
        key[3 * group + 1] = (unsigned char)(word >> 8);
        key[3 * group + 2] = (unsigned char)word;
    }
    /* The key read as a little-endian integer (low: bits 0-63, high: 64-79), walked from the
     * least significant bit. */
    unsigned long long low = 0, high = (unsigned long long)key[9] << 8 | key[8];
    for (int byte = 7; byte >= 0; byte--) low = low << 8 | key[byte];
    memset(board, 0, sizeof *board);
    Count *sides[2] = {board->opponent, board->mover}; /* the player not on roll comes first */
    for (int player = 0; player < 2; player++) {
        Count *side = sides[player];
        int on_board = 0;
        for (int index = 1; index < SLOTS; index++) {
            /* A run of 1-bits, one per checker, then a 0-bit. */
            int count = __builtin_ctzll(~low | 1ULL << 63); /* at most 63 */
            if (count > CHECKERS) return -1;
            int shift = count + 1; /* 1..16 */
            low = low >> shift | high << (64 - shift);
            high >>= shift;
            side[index] = (Count)count;
            on_board += count;
        }
        if (on_board > CHECKERS) return -1;
        side[OFF] = (Count)(CHECKERS - on_board);
    }
    if (low | high) return -1; /* bits after the last checker */
    for (int point = 1; point < BAR; point++) {
        if (board->mover[point] > 0 && board->opponent[BAR - point] > 0) return -1;
    }
    if (board->mover[OFF] == CHECKERS && board->opponent[OFF] == CHECKERS) return -1;
    return 0;
}

/* ------------------------------------------------------------ moves (kiosk.rules.movegen) */

/* Where a checker on ``source`` lands with ``die``, or -1 when the move is not legal. */
static int destination(const Count *mover, const Count *opponent, int source, int die)
{
    if (mover[source] == 0 || (source != BAR && mover[BAR])) return -1;
    int target = source - die;
    if (target > 0) return opponent[BAR - target] > 1 ? -1 : target;
    for (int index = BAR; index > 6; index--) {
        if (mover[index]) return -1;
    }
    if (target < 0) {
        for (int index = 6; index > source; index--) {
            if (mover[index]) return -1;
        }
    }
    return OFF;
}

static int apply_step(Count *mover, Count *opponent, int source, int target)
{
    mover[source]--;
    mover[target]++;
    if (target && opponent[BAR - target] == 1) {
        opponent[BAR - target] = 0;
        opponent[BAR]++;
        return 1;
    }
    return 0;
}

static void undo_step(Count *mover, Count *opponent, int source, int target, int hit)
{
    mover[source]++;
    mover[target]--;
    if (hit) {
        opponent[BAR - target] = 1;
        opponent[BAR]--;
    }
}

/* movegen.max_dice_playable: how many of ``dice`` can be played, stopping at a complete play. */
static int deepest(Count *mover, Count *opponent, const int *dice, int count, int is_double,
                   int depth, int highest_source)
{
    if (depth == count) return depth;
    int die = dice[depth];
    int best = depth;
    for (int source = highest_source; source > 0; source--) {
        if (!mover[source]) continue;
        int target = destination(mover, opponent, source, die);
        if (target < 0) continue;
        int hit = apply_step(mover, opponent, source, target);
        int reached =
            deepest(mover, opponent, dice, count, is_double, depth + 1, is_double ? source : BAR);
        undo_step(mover, opponent, source, target, hit);
        if (reached == count) return count;
        if (reached > best) best = reached;
    }
    return best;
}

/* The dice sequences a legal play uses, all of equal maximal length (verdict._die_orders). */
typedef struct {
    int dice[2][MAX_DICE];
    int orders;
    int length;
    int is_double;
} DieOrders;

static void die_orders(Board *board, int first, int second, DieOrders *out)
{
    Count *mover = board->mover, *opponent = board->opponent;
    int high = first > second ? first : second;
    int low = first > second ? second : first;
    out->is_double = first == second;
    if (out->is_double) {
        int dice[MAX_DICE] = {first, first, first, first};
        out->orders = 1;
        out->length = deepest(mover, opponent, dice, MAX_DICE, 1, 0, BAR);
        memcpy(out->dice[0], dice, sizeof dice);
        return;
    }
    int high_low[2] = {high, low}, low_high[2] = {low, high};
    if (deepest(mover, opponent, high_low, 2, 0, 0, BAR) == 2 ||
        deepest(mover, opponent, low_high, 2, 0, 0, BAR) == 2) {
        out->orders = 2;
        out->length = 2;
        memcpy(out->dice[0], high_low, sizeof high_low);
        memcpy(out->dice[1], low_high, sizeof low_high);
        return;
    }
    out->orders = 1;
    /* Only one number can be played: the larger if it can be. */
    int singles[2] = {high, low};
    for (int i = 0; i < 2; i++) {
        for (int source = BAR; source > 0; source--) {
            if (destination(mover, opponent, source, singles[i]) >= 0) {
                out->length = 1;
                out->dice[0][0] = singles[i];
                return;
            }
        }
    }
    out->length = 0;
}

/* ------------------------------------------------------- notation (notation.format_play) */

#define TEXT_SIZE 64 /* at most 4 moves, "bar/19*" and the like: under 40 characters */

static char *point_name(char *out, int index)
{
    if (index == BAR) return memcpy(out, "bar", 3), out + 3;
    if (index == OFF) return memcpy(out, "off", 3), out + 3;
    if (index >= 10) *out++ = (char)('0' + index / 10);
    *out++ = (char)('0' + index % 10);
    return out;
}

/* The canonical text of ``count`` moves (in the order played), NUL-terminated; its length. */
static int format_play(const Move *moves, int count, char *text)
{
    /* Stable sort by descending source. */
    Move sorted[MAX_DICE];
    for (int i = 0; i < count; i++) {
        int j = i;
        while (j > 0 && sorted[j - 1].source < moves[i].source) {
            sorted[j] = sorted[j - 1];
            j--;
        }
        sorted[j] = moves[i];
    }
    /* Chains: each move continues the first chain ending where it starts. */
    Move chains[MAX_DICE][MAX_DICE];
    int chain_length[MAX_DICE];
    int chain_count = 0;
    for (int i = 0; i < count; i++) {
        int c = 0;
        while (c < chain_count &&
               chains[c][chain_length[c] - 1].target != sorted[i].source) {
            c++;
        }
        if (c == chain_count) {
            chain_length[chain_count++] = 0;
        }
        chains[c][chain_length[c]++] = sorted[i];
    }
    /* Groups: chains over the same points, written once with a count; hits merged. */
    int paths[MAX_DICE][MAX_DICE + 1], path_length[MAX_DICE], hits[MAX_DICE][MAX_DICE];
    int repeats[MAX_DICE];
    int group_count = 0;
    for (int c = 0; c < chain_count; c++) {
        int path[MAX_DICE + 1];
        int length = chain_length[c] + 1;
        path[0] = chains[c][0].source;
        for (int k = 0; k < chain_length[c]; k++) path[k + 1] = chains[c][k].target;
        int g = 0;
        while (g < group_count && !(path_length[g] == length &&
                                    memcmp(paths[g], path, sizeof(int) * (size_t)length) == 0)) {
            g++;
        }
        if (g == group_count) {
            group_count++;
            path_length[g] = length;
            memcpy(paths[g], path, sizeof(int) * (size_t)length);
            repeats[g] = 0;
            for (int k = 0; k < chain_length[c]; k++) hits[g][k] = 0;
        }
        repeats[g]++;
        for (int k = 0; k < chain_length[c]; k++) hits[g][k] |= chains[c][k].hit;
    }
    /* Stable sort of the groups by (-first point, -last point). */
    int order[MAX_DICE];
    for (int g = 0; g < group_count; g++) {
        int j = g;
        while (j > 0) {
            int p = order[j - 1];
            int later = paths[p][0] < paths[g][0] ||
                        (paths[p][0] == paths[g][0] &&
                         paths[p][path_length[p] - 1] < paths[g][path_length[g] - 1]);
            if (!later) break;
            order[j] = p;
            j--;
        }
        order[j] = g;
    }
    char *out = text;
    for (int i = 0; i < group_count; i++) {
        int g = order[i];
        if (i) *out++ = ' ';
        out = point_name(out, paths[g][0]);
        int last = path_length[g] - 1;
        for (int step = 1; step <= last; step++) {
            int hit = hits[g][step - 1];
            if (hit || step == last) {
                *out++ = '/';
                out = point_name(out, paths[g][step]);
                if (hit) *out++ = '*';
            }
        }
        if (repeats[g] > 1) {
            *out++ = '(';
            *out++ = (char)('0' + repeats[g]);
            *out++ = ')';
        }
    }
    *out = '\0';
    return (int)(out - text);
}

/* ---------------------------------------------------------- verdict (verdict.find_play) */

/* The opponent's checkers may only have been hit: blots sent from a point to the bar. */
static int opponent_consistent(const Count *before, const Count *after)
{
    if (before[OFF] != after[OFF]) return 0;
    int hits = 0;
    for (int point = 1; point < BAR; point++) {
        if (after[point] != before[point]) {
            if (before[point] != 1 || after[point] != 0) return 0;
            hits++;
        }
    }
    return after[BAR] == before[BAR] + hits && hits <= 4;
}

/* slack[k] = mover's checkers at index >= k now, minus in the target; -1 when one is negative. */
static int compute_slack(const Count *before, const Count *after, int *slack)
{
    int now = 0, target = 0;
    for (int index = BAR; index >= 0; index--) {
        now += before[index];
        target += after[index];
        if (now < target) return -1;
        slack[index] = now - target;
    }
    return 0;
}

typedef struct {
    const Board *goal;
    const int *dice;
    int count;
    int is_double;
    Move moves[MAX_DICE];
} TargetSearch;

/* verdict._Target.search: play towards the goal only; fills ``moves``; 1 when found. */
static int target_search(TargetSearch *search, Count *mover, Count *opponent, int *slack, int depth,
                         int top)
{
    if (depth == search->count) {
        return memcmp(mover, search->goal->mover, BOARD_SIZE) == 0 &&
               memcmp(opponent, search->goal->opponent, BOARD_SIZE) == 0;
    }
    int die = search->dice[depth];
    for (int source = top; source > 0; source--) {
        if (!mover[source]) continue;
        int target = destination(mover, opponent, source, die);
        if (target < 0) continue;
        int blocked = 0;
        for (int k = target + 1; k <= source; k++) {
            if (slack[k] < 1) {
                blocked = 1;
                break;
            }
        }
        if (blocked) continue;
        if (target && opponent[BAR - target] == 1 && search->goal->opponent[BAR - target] == 1) {
            continue; /* it would hit a blot that the goal still shows on its point */
        }
        int hit = apply_step(mover, opponent, source, target);
        for (int k = target + 1; k <= source; k++) slack[k]--;
        search->moves[depth] = (Move){source, target, hit};
        int found = target_search(search, mover, opponent, slack, depth + 1,
                                  search->is_double ? source : BAR);
        for (int k = target + 1; k <= source; k++) slack[k]++;
        undo_step(mover, opponent, source, target, hit);
        if (found) return 1;
    }
    return 0;
}

/* verdict.find_play: the length of a legal play reaching ``goal`` (moves in ``moves``), or -1. */
static int find_play(Board *before, const DieOrders *orders, const Board *goal, Move *moves)
{
    int slack[SLOTS];
    if (!opponent_consistent(before->opponent, goal->opponent)) return -1;
    if (compute_slack(before->mover, goal->mover, slack) < 0 || slack[0] != 0) return -1;
    for (int i = 0; i < orders->orders; i++) {
        TargetSearch search = {goal, orders->dice[i], orders->length, orders->is_double, {{0}}};
        if (target_search(&search, before->mover, before->opponent, slack, 0, BAR)) {
            memcpy(moves, search.moves, sizeof(Move) * (size_t)orders->length);
            return orders->length;
        }
    }
    return -1;
}

/* ------------------------------------------------- closest plays (verdict.closest_plays) */

#define MAX_CANDIDATES 4096
#define HASH_SLOTS 8192 /* a power of two, at least twice MAX_CANDIDATES */
#define CLOSEST_LIMIT 5

typedef struct {
    Board key; /* the resulting board */
    Move moves[MAX_DICE];
} Candidate;

/*
 * The plays of the legal length in generation order (movegen.legal_paths), keeping for each
 * resulting board only the first path that reaches it, and of those only the boards nearest to
 * the goal. Static storage: the GIL is held for the whole computation.
 */
typedef struct {
    const Board *goal;
    const int *dice;
    int count;
    int is_double;
    int best;          /* nearest distance so far */
    int found;         /* candidates at that distance */
    int overflow;      /* more candidates than fit: the caller falls back to Python */
    unsigned epoch;    /* hash slots of other epochs are empty */
    Move path[MAX_DICE];
} Generation;

static Candidate candidates[MAX_CANDIDATES];
static struct {
    unsigned epoch;
    int index;
} hash_table[HASH_SLOTS];

/* A fresh epoch: every hash slot reads as empty again. */
static unsigned next_epoch(void)
{
    static unsigned epoch;
    if (++epoch == 0) {
        memset(hash_table, 0, sizeof hash_table);
        epoch = 1;
    }
    return epoch;
}

static void record_leaf(Generation *gen, const Count *mover, const Count *opponent)
{
    int total = 0;
    for (int i = 0; i < BOARD_SIZE; i++) {
        total += abs(mover[i] - gen->goal->mover[i]) + abs(opponent[i] - gen->goal->opponent[i]);
    }
    int distance = total / 2; /* verdict.distance: how many checkers stand differently */
    if (distance > gen->best) return;
    if (distance < gen->best) {
        gen->best = distance;
        gen->found = 0;
        gen->epoch = next_epoch();
    }
    Board key;
    memcpy(key.mover, mover, BOARD_SIZE);
    memcpy(key.opponent, opponent, BOARD_SIZE);
    unsigned long long words[sizeof key / 8], hash = 0;
    memcpy(words, &key, sizeof key);
    for (size_t i = 0; i < sizeof key / 8; i++) {
        hash = (hash ^ words[i]) * 0x9E3779B97F4A7C15ULL;
    }
    unsigned slot = (unsigned)(hash >> 40) & (HASH_SLOTS - 1);
    while (hash_table[slot].epoch == gen->epoch) {
        if (memcmp(&candidates[hash_table[slot].index].key, &key, sizeof key) == 0) return;
        slot = (slot + 1) & (HASH_SLOTS - 1);
    }
    if (gen->found == MAX_CANDIDATES) {
        gen->overflow = 1;
        return;
    }
    hash_table[slot].epoch = gen->epoch;
    hash_table[slot].index = gen->found;
    Candidate *candidate = &candidates[gen->found++];
    candidate->key = key;
    memcpy(candidate->moves, gen->path, sizeof(Move) * (size_t)gen->count);
}

/* movegen._Search.run restricted to the legal length: every leaf is a complete legal play. */
static void generate(Generation *gen, Count *mover, Count *opponent, int depth, int highest_source)
{
    if (depth == gen->count || depth == MAX_DICE) { /* count <= MAX_DICE: a bound gcc can see */
        record_leaf(gen, mover, opponent);
        return;
    }
    int die = gen->dice[depth];
    for (int source = highest_source; source > 0; source--) {
        if (!mover[source]) continue;
        int target = destination(mover, opponent, source, die);
        if (target < 0) continue;
        int hit = apply_step(mover, opponent, source, target);
        gen->path[depth] = (Move){source, target, hit};
        generate(gen, mover, opponent, depth + 1, gen->is_double ? source : BAR);
        undo_step(mover, opponent, source, target, hit);
    }
}

typedef struct {
    char text[TEXT_SIZE];
    int length;
} Text;

static Text texts[MAX_CANDIDATES];
static int text_order[MAX_CANDIDATES];

static int compare_texts(const void *left, const void *right)
{
    int a = *(const int *)left, b = *(const int *)right;
    int order = strcmp(texts[a].text, texts[b].text);
    return order ? order : (a > b) - (a < b); /* stable, as Python's sort */
}

/* The number of nearest legal plays, at most CLOSEST_LIMIT, their texts sorted in
 * texts[text_order[...]] until the next call; -1 when there are more than MAX_CANDIDATES. */
static int closest_plays(Board *before, const DieOrders *orders, const Board *goal)
{
    Generation gen = {
        .goal = goal,
        .count = orders->length,
        .is_double = orders->is_double,
        .best = 2 * CHECKERS + 1, /* more than any distance */
        .epoch = next_epoch(),
    };
    for (int i = 0; i < orders->orders; i++) {
        gen.dice = orders->dice[i];
        generate(&gen, before->mover, before->opponent, 0, BAR);
    }
    if (gen.overflow) return -1;
    for (int i = 0; i < gen.found; i++) {
        texts[i].length = format_play(candidates[i].moves, gen.count, texts[i].text);
        text_order[i] = i;
    }
    qsort(text_order, (size_t)gen.found, sizeof(int), compare_texts);
    return gen.found < CLOSEST_LIMIT ? gen.found : CLOSEST_LIMIT;
}

/* ----------------------------------------------------------- the verdict of one request */

typedef struct {
    const char *position; /* Position ID of the board before the play, the mover on roll */
    Py_ssize_t position_length;
    const char *after; /* Position ID after the play, the opponent on roll */
    Py_ssize_t after_length;
    int first, second; /* the dice */
} Request;

typedef struct {
    int legal;
    char play[TEXT_SIZE]; /* when legal */
    int play_length;
    int closest; /* when not: how many nearest plays, their texts below (sorted) */
    Text closest_texts[CLOSEST_LIMIT];
} Verdict;

/* Judge ``request``: 0, or -1 when the pure-Python code must (invalid input, overflow). */
static int judge(const Request *request, Verdict *verdict)
{
    Board before, seen, goal;
    if (request->first < 1 || request->first > 6 || request->second < 1 || request->second > 6 ||
        decode_id(request->position, request->position_length, &before) < 0 ||
        decode_id(request->after, request->after_length, &seen) < 0) {
        return -1;
    }
    /* ``after`` has the opponent on roll: the goal is the same board in the mover's view. */
    memcpy(goal.mover, seen.opponent, sizeof goal.mover);
    memcpy(goal.opponent, seen.mover, sizeof goal.opponent);
    DieOrders orders;
    die_orders(&before, request->first, request->second, &orders);
    Move moves[MAX_DICE];
    int length = find_play(&before, &orders, &goal, moves);
    verdict->legal = length >= 0;
    if (verdict->legal) {
        verdict->play_length = format_play(moves, length, verdict->play);
        return 0;
    }
    verdict->closest = closest_plays(&before, &orders, &goal);
    for (int i = 0; i < verdict->closest; i++) verdict->closest_texts[i] = texts[text_order[i]];
    return verdict->closest < 0 ? -1 : 0;
}

/* ------------------------------------------------------------------ check(position, ...) */

static const char *ascii_text(PyObject *value, Py_ssize_t *length)
{
    if (!PyUnicode_Check(value) || !PyUnicode_IS_ASCII(value)) return NULL;
    *length = PyUnicode_GET_LENGTH(value);
    return (const char *)PyUnicode_DATA(value);
}

static int die_value(PyObject *value)
{
    if (!PyLong_CheckExact(value)) return -1;
    int overflow = 0;
    long die = PyLong_AsLongAndOverflow(value, &overflow);
    return !overflow && die >= 1 && die <= 6 ? (int)die : -1;
}

static PyObject *speedups_check(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "check(position, die1, die2, after) takes 4 arguments");
        return NULL;
    }
    Request request;
    Verdict verdict;
    request.position = ascii_text(args[0], &request.position_length);
    request.after = ascii_text(args[3], &request.after_length);
    request.first = die_value(args[1]);
    request.second = die_value(args[2]);
    if (request.position == NULL || request.after == NULL || judge(&request, &verdict) < 0) {
        Py_RETURN_NONE;
    }
    if (verdict.legal) return PyUnicode_FromStringAndSize(verdict.play, verdict.play_length);
    PyObject *list = PyList_New(verdict.closest);
    if (list == NULL) return NULL;
    for (int i = 0; i < verdict.closest; i++) {
        const Text *text = &verdict.closest_texts[i];
        PyObject *item = PyUnicode_FromStringAndSize(text->text, text->length);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* ------------------------------------------------------------------------ check_line(line) */

/*
 * The check command's JSON lines (DESIGN.md section 4), in the plain form that producers write:
 * an object with the keys "position", "dice", "after" and optionally "id", each once, in any
 * order, with JSON whitespace anywhere; "position" and "after" strings without escapes, "dice" two
 * digits 1-6, "id" null, an integer of at most 18 digits (not -0) or a string of printable ASCII
 * without escapes. Anything else is left to Python's json module (check_line returns None).
 * The answer is written as json.dumps writes it: ", " and ": " separators, keys in the order id,
 * legal, play or closest.
 */

#define ID_TEXT_LIMIT 256
#define LINE_SIZE (ID_TEXT_LIMIT + 64 + CLOSEST_LIMIT * (TEXT_SIZE + 4))

typedef struct {
    const char *at;
    const char *end;
} Cursor;

static void skip_space(Cursor *cursor)
{
    while (cursor->at < cursor->end &&
           (*cursor->at == ' ' || *cursor->at == '\t' || *cursor->at == '\n' ||
            *cursor->at == '\r')) {
        cursor->at++;
    }
}

static int expect(Cursor *cursor, char c)
{
    skip_space(cursor);
    if (cursor->at == cursor->end || *cursor->at != c) return -1;
    cursor->at++;
    return 0;
}

/* A string of printable ASCII without escapes, quotes included in [*start, *start + *length). */
static int plain_string(Cursor *cursor, const char **start, Py_ssize_t *length)
{
    if (expect(cursor, '"') < 0) return -1;
    const char *from = cursor->at;
    while (cursor->at < cursor->end && *cursor->at != '"') {
        if (*cursor->at == '\\' || (unsigned char)*cursor->at < 0x20) return -1;
        cursor->at++;
    }
    if (cursor->at == cursor->end) return -1;
    *start = from - 1;
    *length = cursor->at - from + 2;
    cursor->at++;
    return 0;
}

/* The id as json.dumps writes it: null, a plain integer or a plain string, copied. */
static int id_value(Cursor *cursor, const char **start, Py_ssize_t *length)
{
    skip_space(cursor);
    const char *from = cursor->at;
    if (cursor->end - from >= 4 && memcmp(from, "null", 4) == 0) {
        cursor->at += 4;
    } else if (from < cursor->end && *from == '"') {
        return plain_string(cursor, start, length) < 0 || *length > ID_TEXT_LIMIT ? -1 : 0;
    } else {
        if (cursor->at < cursor->end && *cursor->at == '-') cursor->at++;
        const char *digits = cursor->at;
        while (cursor->at < cursor->end && *cursor->at >= '0' && *cursor->at <= '9') cursor->at++;
        Py_ssize_t count = cursor->at - digits;
        if (count == 0 || count > 18 || (*digits == '0' && (count > 1 || digits != from))) {
            return -1; /* not an integer, leading zeros, -0, or long */
        }
    }
    *start = from;
    *length = cursor->at - from; /* parse_line rejects what follows unless it is , or } */
    return 0;
}

static int die_digit(Cursor *cursor)
{
    skip_space(cursor);
    if (cursor->at == cursor->end || *cursor->at < '1' || *cursor->at > '6') return -1;
    return *cursor->at++ - '0';
}

/* Parse a plain check line into ``request`` and the id text; 0, or -1 when it is not plain. */
static int parse_line(Cursor *cursor, Request *request, const char **id, Py_ssize_t *id_length)
{
    int seen_id = 0;
    request->position = request->after = NULL;
    request->first = 0;
    *id = "null";
    *id_length = 4;
    if (expect(cursor, '{') < 0) return -1;
    do {
        const char *key;
        Py_ssize_t length;
        if (plain_string(cursor, &key, &length) < 0 || expect(cursor, ':') < 0) return -1;
        if (length == 4 && memcmp(key, "\"id\"", 4) == 0 && !seen_id) {
            seen_id = 1;
            if (id_value(cursor, id, id_length) < 0) return -1;
        } else if (length == 10 && memcmp(key, "\"position\"", 10) == 0 && !request->position) {
            if (plain_string(cursor, &request->position, &request->position_length) < 0) return -1;
            request->position++; /* without the quotes */
            request->position_length -= 2;
        } else if (length == 7 && memcmp(key, "\"after\"", 7) == 0 && !request->after) {
            if (plain_string(cursor, &request->after, &request->after_length) < 0) return -1;
            request->after++;
            request->after_length -= 2;
        } else if (length == 6 && memcmp(key, "\"dice\"", 6) == 0 && !request->first) {
            if (expect(cursor, '[') < 0 || (request->first = die_digit(cursor)) < 0 ||
                expect(cursor, ',') < 0 || (request->second = die_digit(cursor)) < 0 ||
                expect(cursor, ']') < 0) {
                return -1;
            }
        } else {
            return -1; /* another key, or a key twice */
        }
        skip_space(cursor);
    } while (cursor->at < cursor->end && *cursor->at++ == ',');
    if (cursor->at[-1] != '}') return -1;
    skip_space(cursor);
    return cursor->at == cursor->end && request->position && request->after && request->first
               ? 0
               : -1;
}

static char *append(char *out, const char *text, Py_ssize_t length)
{
    memcpy(out, text, (size_t)length);
    return out + length;
}

#define APPEND_LITERAL(out, literal) append((out), (literal), (Py_ssize_t)sizeof(literal) - 1)

static PyObject *speedups_check_line(PyObject *module, PyObject *line)
{
    (void)module;
    Py_ssize_t length;
    const char *text = ascii_text(line, &length);
    Request request;
    Verdict verdict;
    const char *id;
    Py_ssize_t id_length;
    if (text == NULL) Py_RETURN_NONE;
    Cursor cursor = {text, text + length};
    if (parse_line(&cursor, &request, &id, &id_length) < 0 || judge(&request, &verdict) < 0) {
        Py_RETURN_NONE;
    }
    char answer[LINE_SIZE];
    char *out = APPEND_LITERAL(answer, "{\"id\": ");
    out = append(out, id, id_length);
    if (verdict.legal) {
        out = APPEND_LITERAL(out, ", \"legal\": true, \"play\": \"");
        out = append(out, verdict.play, verdict.play_length);
        out = APPEND_LITERAL(out, "\"}\n");
    } else {
        out = APPEND_LITERAL(out, ", \"legal\": false, \"closest\": [");
        for (int i = 0; i < verdict.closest; i++) {
            const Text *play = &verdict.closest_texts[i];
            if (i) out = APPEND_LITERAL(out, ", ");
            *out++ = '"';
            out = append(out, play->text, play->length);
            *out++ = '"';
        }
        out = APPEND_LITERAL(out, "]}\n");
    }
    return PyUnicode_FromStringAndSize(answer, out - answer);
}

static PyMethodDef speedups_methods[] = {
    {"check", (PyCFunction)(void (*)(void))speedups_check, METH_FASTCALL,
     "check(position, die1, die2, after) -> str | list[str] | None\n\n"
     "The verdict for two Position IDs and a roll: the text of the legal play reaching after,\n"
     "the texts of the closest legal plays when none does, or None when the pure-Python code\n"
     "must decide (invalid input)."},
    {"check_line", speedups_check_line, METH_O,
     "check_line(line) -> str | None\n\n"
     "The answer line (with its newline) of the check command to one JSON input line, or None\n"
     "when the line is not in the plain form or the pure-Python code must decide."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    "kiosk.rules._speedups",
    "C accelerator for the check command's verdicts (see kiosk/rules/fast.py).",
    0,
    speedups_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    return PyModule_Create(&speedups_module);
}

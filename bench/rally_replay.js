"use strict"
// A Rally the Troops replay, timed: node rally_replay.js RULES_DIR SCENARIO GAMES ROUNDS
//
// RULES_DIR holds a Rally the Troops game's public rules.js (and the data.js it requires), from
// the user's own copy: pbem ships none of it. GAMES games are played by random legal actions
// (seeded, `undo` never taken), each recorded as Rally records a game: [role, action, arg] per
// action. Then each game is replayed ROUNDS times, as a server replays a recorded game to check it:
// per action the legality (the action and argument among view(state, role).actions), the rules
// (rules.action), a JSON snapshot of the whole state (JSON.stringify) and a SHA-256 checksum of it.
// Prints one JSON line: actions, the first replay's µs per action (cold: the JIT not warmed) and
// the best later round's (warm).

const path = require("path")
const crypto = require("crypto")

const [dir, scenario, games, rounds] = [process.argv[2], process.argv[3], +process.argv[4], +process.argv[5]]
const rules = require(path.resolve(dir, "rules.js"))
const MAX_ACTIONS = 50000 // a random game that never ends is cut here

let rng = 12345
function pick(n) { // the driver's own choices, seeded: the same games on every run
	rng = (rng * 48271) % 0x7fffffff
	return rng % n
}

function choices(view) {
	let out = []
	for (let action in view.actions || {}) {
		if (action === "undo")
			continue
		let args = view.actions[action]
		if (Array.isArray(args))
			for (let a of args)
				out.push([action, a])
		else if (args)
			out.push([action, undefined])
	}
	return out
}

function play(seed) {
	let state = rules.setup(seed, scenario, {})
	let record = []
	while (state.state !== "game_over" && record.length < MAX_ACTIONS) {
		let moved = false
		for (let role of rules.roles) {
			let legal = choices(rules.view(state, role))
			if (legal.length === 0)
				continue
			let [action, arg] = legal[pick(legal.length)]
			record.push([role, action, arg])
			state = rules.action(state, role, action, arg)
			moved = true
			break
		}
		if (!moved)
			break
	}
	return { seed, record }
}

function legal(view, action, arg) {
	let args = view.actions && view.actions[action]
	if (Array.isArray(args))
		return args.includes(arg)
	return !!args && arg === undefined
}

function replay(game) {
	let state = rules.setup(game.seed, scenario, {})
	for (let [role, action, arg] of game.record) {
		if (!legal(rules.view(state, role), action, arg))
			throw new Error("illegal action in replay: " + action)
		state = rules.action(state, role, action, arg)
		crypto.createHash("sha256").update(JSON.stringify(state)).digest("hex")
	}
	return state
}

let recorded = []
for (let i = 0; i < games; ++i)
	recorded.push(play(1000 + i))
// Setup and the random play above ran the rules once already; a fresh copy of the module would be
// colder still, but a replay tool loads the rules once and checks many games.
let actions = recorded.reduce((n, g) => n + g.record.length, 0)
let times = []
for (let r = 0; r < rounds; ++r) {
	let start = process.hrtime.bigint()
	for (let g of recorded)
		replay(g)
	times.push(Number(process.hrtime.bigint() - start) / 1000)
}
let last = JSON.stringify(replay(recorded[0])).length
console.log(JSON.stringify({ actions, games, cold_us: times[0] / actions, warm_us: Math.min(...times.slice(1)) / actions,
	final_state_bytes: last }))

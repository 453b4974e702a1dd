// The RV service catalog's slide-out room procedure (see rv-catalog.ts and CATALOG.md).

import type { TCatalog } from "./catalog-schema";

export const SLIDE_OUT: TCatalog["systems"][number] = {
  id: "slide_out",
  name: "Slide-out room",
  detect: {
    keywords: ["slide", "slide out", "slide-out", "slideout", "slide room", "retract", "extend"],
    phrases: ["slide won't move", "slide won't retract", "slide won't extend", "slide is stuck", "slide stuck"],
  },
  procedure: {
    id: "slide_out_isolation",
    title: "Slide-out: will not move, or stalls",
    steps: [
      {
        id: "battery",
        question:
          "What is the battery voltage at the batteries (engine and generator off, charger off)? Is it at least 12.4 V?",
        howto:
          "Turn off chargers and let the batteries rest a few minutes, then measure across the battery posts with a meter on DC volts. 12.6 V is full; under 12.4 V slides often stall.",
        locate: "The house batteries are in a front or side compartment, or under the entry steps on smaller units.",
        explain: "Slide motors draw 30–50 A; a weak battery is the most common reason a slide will not move.",
        minutes: 5,
        answers: [
          {
            id: "ok",
            label: "12.4 V or more",
            patterns: [
              "yes",
              "12.4",
              "12.5",
              "12.6",
              "12.7",
              "12.8",
              "13",
              "above 12.4",
              "battery is good",
              "battery ok",
              "fully charged",
              "charged",
            ],
            finding: "battery=ok",
          },
          {
            id: "low",
            label: "Under 12.4 V",
            patterns: [
              "no",
              "low",
              "12.0",
              "12.1",
              "12.2",
              "12.3",
              "11",
              "below 12",
              "below 12.4",
              "under 12",
              "battery is low",
              "battery low",
              "dead battery",
              "weak",
            ],
            finding: "battery=low",
            next: "report",
            cause:
              "Low battery voltage: the slide motor draws high current and stalls or will not run below about 12.4 V.",
            correction:
              "Charge the batteries (shore power, generator or engine) and retest; load-test and replace weak batteries.",
          },
        ],
      },
      {
        id: "slide_switch",
        question:
          "Press the slide switch IN and OUT. Does 12 V reach the switch and come out of it (or does the controller click or show a code)?",
        howto:
          "Back-probe the switch's input and its IN/OUT outputs while pressing it, or listen for the controller's relays and read any fault code on its display.",
        locate:
          "The slide switch is near the entry door or on the command centre; the controller is usually behind a panel near the slide.",
        explain:
          "The switch and controller decide whether the motor gets power; no output means the fault is upstream of the motor.",
        minutes: 10,
        answers: [
          {
            id: "ok",
            label: "Switch sends 12 V / controller clicks",
            patterns: [
              "yes",
              "switch ok",
              "switch works",
              "switch is good",
              "has output",
              "12v out",
              "controller clicks",
              "clicks",
            ],
            finding: "slide_switch=ok",
          },
          {
            id: "bad",
            label: "No output (or a fault code)",
            patterns: [
              "no",
              "no output",
              "switch is bad",
              "bad switch",
              "no power at the switch",
              "no click",
              "fault code",
              "error code",
            ],
            finding: "slide_switch=bad",
            next: "report",
            cause: "The slide switch or controller does not send power (switch, slide fuse, interlock or controller).",
            correction:
              "Check the slide fuse or breaker and the interlocks (park brake, ignition, levelling jacks); replace the switch or controller as testing shows.",
          },
        ],
      },
      {
        id: "motor_runs",
        question: "When you press the switch, does the slide motor run?",
        howto:
          "Have a helper press the switch while you listen at the motor (under the slide floor, or at the wall for in-wall systems). A hum or whine means it runs.",
        locate:
          "Rack-and-pinion motors are under the slide floor, reached from outside under the room; in-wall and cable systems have a motor at the top or side of the opening.",
        explain:
          "A motor that runs without moving the room points to the mechanism; one that does not run points to its power.",
        minutes: 10,
        constraints: ["slide_battery_disconnect"],
        answers: [
          {
            id: "no",
            label: "Motor does not run",
            patterns: [
              "no",
              "motor doesn't run",
              "motor does not run",
              "motor won't run",
              "motor is dead",
              "no sound",
              "silent",
            ],
            finding: "slide_motor=no",
            next: "report",
            cause: "12 V is sent but the motor does not run (motor, motor wiring or ground).",
            correction:
              "Check 12 V and ground at the motor connector while pressing the switch; repair the wiring or replace the motor.",
          },
          {
            id: "runs_no_move",
            label: "Runs, but the room does not move",
            patterns: ["runs but doesn't move", "motor runs", "hear it run", "spins", "runs but nothing"],
            finding: "slide_motor=runs_no_move",
            next: "binding",
          },
          {
            id: "stalls",
            label: "Moves, then stalls or strains",
            patterns: [
              "stalls",
              "strains",
              "moves then stops",
              "stops partway",
              "slows down",
              "moves slowly",
              "grinds",
              "grinding",
            ],
            finding: "slide_motor=stalls",
            next: "binding",
          },
        ],
      },
      {
        id: "binding",
        question:
          "Look along the room and its rails: is anything blocking or binding it (items inside, debris or ice on the rails, a seal caught, the room out of square)?",
        howto:
          "Walk around the slide inside and out with a flashlight: check the floor and rails for debris, the top and side seals for a fold caught in the opening, and measure the gap at each corner for out-of-square.",
        locate: "Rails or gears are under the room floor; seals run around the outside of the opening.",
        explain: "Most slides that stall are fighting an obstruction; forcing them damages the drive.",
        minutes: 15,
        constraints: ["clear_path"],
        answers: [
          {
            id: "obstruction",
            label: "Something blocks or binds it",
            patterns: [
              "yes",
              "blocked",
              "obstruction",
              "something blocking",
              "debris",
              "ice",
              "seal caught",
              "caught",
              "jammed",
              "binding",
              "rubbing",
              "out of square",
            ],
            finding: "binding=obstruction",
            next: "report",
            cause: "The room binds on an obstruction (debris, ice, a caught seal, or out of square).",
            correction:
              "Remove the obstruction, clean and lubricate the rails per the manufacturer, free the seal; if the room is out of square, have it adjusted before running it again.",
          },
          {
            id: "none",
            label: "Nothing found",
            patterns: ["no", "nothing blocking", "clear", "path is clear", "no obstruction", "all clear"],
            finding: "binding=none",
          },
        ],
      },
      {
        id: "manual_override",
        question:
          "Using the manual override (crank or brake release, per the manufacturer), does the room move by hand?",
        howto:
          "Find the override in the owner's manual: a crank extension on the motor shaft, or a brake release on the motor. Support the room first, then turn slowly; it should move evenly without binding.",
        locate: "The override is at the slide motor: under the slide floor or behind an access panel inside the room.",
        explain: "Moving by hand separates the drive (motor, brake, coupling) from the mechanism (gears, rails).",
        minutes: 20,
        constraints: ["support_room", "clear_path"],
        answers: [
          {
            id: "moves",
            label: "Moves by hand",
            patterns: ["yes", "moves", "it moves", "moves by hand", "room moves", "cranks easily", "moves freely"],
            finding: "override=moves",
            next: "report",
            cause: "The room moves freely by hand: a drive fault (motor, motor brake or coupling).",
            correction:
              "Replace the slide motor / brake assembly or the coupling and verify the room runs its full travel.",
          },
          {
            id: "stuck",
            label: "Does not move even by hand",
            patterns: [
              "no",
              "stuck",
              "won't move",
              "will not move",
              "doesn't move",
              "does not move",
              "won't crank",
              "can't crank",
              "seized",
              "locked",
            ],
            finding: "override=stuck",
            next: "report",
            escalate: "warranty",
            cause: "The room does not move even by hand: mechanical failure in the gearbox or rails.",
            correction:
              "Do not disassemble the gearbox or rails under warranty: support the room and escalate to the dealer.",
          },
        ],
      },
    ],
  },
  constraints: {
    safety: [
      {
        id: "clear_path",
        text: "Keep people, pets and objects clear of the slide room and its path while it moves.",
        always: true,
      },
      {
        id: "support_room",
        text: "Support the room (blocks or stands) before releasing the motor brake or removing the motor: the room can move freely.",
      },
      { id: "slide_battery_disconnect", text: "Disconnect the battery before working on the slide motor wiring." },
    ],
    warranty: [
      {
        id: "slide_mechanism",
        text: "Do not disassemble the slide gearbox, rails or cable system under warranty; escalate to the dealer.",
        always: true,
      },
    ],
  },
};

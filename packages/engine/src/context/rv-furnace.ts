// The RV service catalog's LP furnace procedure (see rv-catalog.ts and CATALOG.md).

import type { TCatalog } from "./catalog-schema";

export const FURNACE: TCatalog["systems"][number] = {
  id: "furnace",
  name: "LP furnace",
  detect: {
    keywords: ["furnace", "heat", "heater", "heating", "igniter", "propane", "lp", "sail switch", "limit switch"],
    phrases: [
      "no heat",
      "furnace won't light",
      "furnace won't start",
      "furnace blows cold air",
      "furnace keeps cycling",
    ],
  },
  procedure: {
    id: "furnace_isolation",
    title: "LP furnace: no heat or short-cycling",
    steps: [
      {
        id: "lp_level",
        question: "Is there LP with the tank valve open: does a stove burner light and hold a steady blue flame?",
        howto:
          "Open the LP tank valve slowly, then light a stove-top burner. A weak, yellow or sputtering flame means low LP or a regulator problem.",
        locate: "The LP tank is in a front compartment or under the entry step; the valve is on top of the tank.",
        explain: "Every furnace fault looks the same without gas; the stove is a free LP test.",
        minutes: 5,
        answers: [
          {
            id: "ok",
            label: "LP OK (stove lights)",
            patterns: [
              "yes",
              "stove lights",
              "burner lights",
              "stove works",
              "has propane",
              "has lp",
              "lp ok",
              "propane ok",
              "tank is full",
            ],
            finding: "lp=ok",
          },
          {
            id: "empty",
            label: "No LP (empty or valve closed)",
            patterns: [
              "no",
              "empty",
              "out of propane",
              "out of lp",
              "no propane",
              "no lp",
              "tank is empty",
              "stove won't light",
              "valve closed",
              "valve was closed",
            ],
            finding: "lp=empty",
            next: "report",
            cause: "No LP supply (tank empty or valve closed).",
            correction:
              "Refill the LP tank or open the valve, purge air by lighting a stove burner, then retest the furnace.",
          },
        ],
      },
      {
        id: "thermostat",
        question: "Set the thermostat to HEAT above room temperature. Does it call for heat?",
        howto:
          "Set HEAT with the setpoint at least 3 °F above room temperature. Listen for the click and look for a heating icon; on dual-fuel units select the furnace, not the heat pump.",
        locate: "The thermostat is on the wall of the main living area, usually near the entry door or the hallway.",
        explain: "The furnace starts only when the thermostat closes its heat circuit.",
        minutes: 5,
        answers: [
          {
            id: "calls",
            label: "Calls for heat",
            patterns: ["yes", "calls for heat", "calling for heat", "clicks", "shows heat", "flame icon"],
            finding: "thermostat_heat=calls",
          },
          {
            id: "no_call",
            label: "No call (blank or no click)",
            patterns: [
              "no",
              "doesn't call",
              "does not call",
              "no click",
              "blank",
              "display blank",
              "no display",
              "thermostat is dead",
            ],
            finding: "thermostat_heat=no_call",
            next: "report",
            cause: "The thermostat does not call for heat.",
            correction:
              "Check 12 V at the thermostat and its wiring; replace the thermostat if it has power but does not close the heat circuit.",
          },
        ],
      },
      {
        id: "blower",
        question: "Within about 30 seconds, does the furnace blower start?",
        howto: "Listen at the furnace's outside vent and feel the floor or wall registers for moving air.",
        locate: "The furnace is low in a cabinet or under a bed or couch, with its vent on the outside wall.",
        explain: "The blower purges the burner and closes the sail switch; the furnace will not ignite without it.",
        minutes: 5,
        answers: [
          {
            id: "runs",
            label: "Blower runs",
            patterns: [
              "yes",
              "blower runs",
              "blower starts",
              "blower comes on",
              "fan runs",
              "fan starts",
              "fan comes on",
            ],
            finding: "blower=runs",
          },
          {
            id: "no",
            label: "Blower does not start",
            patterns: [
              "no",
              "no blower",
              "blower doesn't start",
              "blower won't start",
              "fan doesn't start",
              "fan won't start",
              "silent",
            ],
            finding: "blower=no",
            next: "report",
            cause: "The furnace blower does not start (low 12 V, blower motor, fuse or control board).",
            correction:
              "Check battery voltage at the furnace under load (at least 12 V) and the furnace fuse; replace the blower motor if it has voltage but does not run.",
          },
        ],
      },
      {
        id: "sail_switch",
        question: "With the blower at full speed, does the sail switch close (continuity across its terminals)?",
        howto:
          "With 12 V off, remove the furnace access cover, pull one wire from the sail switch and check it with an ohmmeter while the blower runs (power back on, hands clear), or watch the sail move and the switch click.",
        locate:
          "The sail switch is inside the furnace, next to the blower wheel, with a thin paddle (the sail) in the airflow.",
        explain:
          "The sail switch proves there is enough airflow to burn safely; if it stays open the board never tries to ignite.",
        minutes: 15,
        constraints: ["furnace_12v_off", "never_bypass"],
        answers: [
          {
            id: "closed",
            label: "Closes (continuity)",
            patterns: [
              "yes",
              "closed",
              "closes",
              "continuity",
              "has continuity",
              "sail switch closes",
              "sail switch ok",
            ],
            finding: "sail_switch=closed",
          },
          {
            id: "open",
            label: "Stays open",
            patterns: [
              "no",
              "open",
              "stays open",
              "no continuity",
              "doesn't close",
              "sail switch open",
              "lint",
              "bent",
              "sticking",
              "stuck",
            ],
            finding: "sail_switch=open",
            next: "report",
            cause:
              "The sail switch does not close (lint, low blower speed from low voltage, or a bent or failed switch).",
            correction:
              "Clean lint from the sail and the blower wheel and check the voltage; replace the sail switch if it still does not close. Never jumper it.",
          },
        ],
      },
      {
        id: "ignition",
        question: "At the outside vent: do you hear the igniter click, and does the burner light and stay lit?",
        howto:
          "About 15 seconds after the blower starts, listen at the exhaust for the spark and the burner's 'whoomp', then watch for the flame through the sight window or feel warm exhaust. Note whether it goes out and the furnace locks out after 3 tries.",
        locate: "The igniter electrode and flame sensor sit at the burner, behind the furnace's access cover.",
        explain: "Spark, flame and flame sense are three separate parts; which one fails picks the repair.",
        minutes: 10,
        constraints: ["furnace_12v_off"],
        answers: [
          {
            id: "stays_lit",
            label: "Lights and stays lit",
            patterns: ["yes", "lights", "it lights", "burner lights", "stays lit", "lights and stays lit", "flame"],
            finding: "ignition=stays_lit",
          },
          {
            id: "no_spark",
            label: "No spark / never lights",
            patterns: [
              "no",
              "no spark",
              "no click",
              "no clicking",
              "doesn't spark",
              "no ignition",
              "never lights",
              "doesn't light",
              "won't light",
            ],
            finding: "ignition=no_spark",
            next: "report",
            cause: "No ignition attempt: igniter electrode, its high-voltage lead or the control board.",
            correction:
              "Inspect and re-gap the electrode and check the high-voltage lead; replace the control board as a unit if it still does not spark.",
          },
          {
            id: "drops_out",
            label: "Lights, then goes out (lockout)",
            patterns: [
              "goes out",
              "lights then goes out",
              "flame goes out",
              "drops out",
              "lockout",
              "locks out",
              "lights for a few seconds",
            ],
            finding: "ignition=drops_out",
            next: "report",
            escalate: "warranty",
            cause: "The burner lights but does not stay lit (flame sense or gas valve).",
            correction:
              "Clean the flame-sense electrode and check its ground; if it still drops out, do not disassemble the gas valve or the board: escalate to the dealer.",
          },
        ],
      },
      {
        id: "limit_switch",
        question:
          "Does the furnace run until the room reaches temperature, or does the burner shut off early and cycle (short-cycling)?",
        howto:
          "Run it 10 minutes with all registers open and the return unblocked. If the burner shuts off while the blower keeps running and then relights, the high-limit switch is opening: check for blocked registers and ducts, then test the limit for continuity when cool.",
        locate: "The high-limit switch is a small disc on the heat exchanger, behind the furnace's access cover.",
        explain:
          "The limit switch shuts the burner off when the furnace overheats; it opening early means restricted airflow or a weak switch.",
        minutes: 15,
        constraints: ["never_bypass"],
        answers: [
          {
            id: "normal",
            label: "Runs normally to temperature",
            patterns: [
              "yes",
              "runs normally",
              "heats normally",
              "heats fine",
              "reaches temperature",
              "stays on",
              "normal",
            ],
            finding: "limit=normal",
            next: "report",
            cause: "No fault found: the furnace lights and heats normally during the test.",
            correction:
              "No repair needed; review thermostat placement and LP supply with the customer. An intermittent fault may need a longer run test.",
          },
          {
            id: "short_cycles",
            label: "Shuts off early and cycles",
            patterns: [
              "no",
              "short cycling",
              "short cycles",
              "cycles",
              "keeps cycling",
              "shuts off early",
              "burner shuts off",
              "limit trips",
              "limit opens",
              "overheats",
            ],
            finding: "limit=short_cycles",
            next: "report",
            cause: "The furnace short-cycles on its high-limit switch (restricted airflow or a failing limit switch).",
            correction:
              "Clear blocked registers, ducts and the return; replace the limit switch with the exact OEM part if it opens early. Never bypass it.",
          },
        ],
      },
    ],
  },
  constraints: {
    safety: [
      {
        id: "lp_leak",
        text: "If anyone smells LP: shut the tank valve, no flames or switches, ventilate, and do not continue until the system passes a leak test.",
        always: true,
      },
      {
        id: "never_bypass",
        text: "Never bypass the furnace limit switch or sail switch, not even to test.",
        always: true,
      },
      {
        id: "furnace_12v_off",
        text: "Turn 12 V off at the furnace fuse before removing the access cover or wiring.",
      },
    ],
    warranty: [
      {
        id: "gas_valve",
        text: "Do not disassemble or adjust the gas valve or the control board under warranty; replace them as units through the dealer.",
        always: true,
      },
    ],
  },
};

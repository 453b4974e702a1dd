// The RV service catalog's rooftop air conditioner procedure (see rv-catalog.ts and CATALOG.md).

import type { TCatalog } from "./catalog-schema";

export const ROOF_AC: TCatalog["systems"][number] = {
  id: "roof_ac",
  name: "Rooftop air conditioner",
  detect: {
    keywords: ["a/c", "ac", "air conditioner", "air conditioning", "rooftop unit", "compressor", "cooling"],
    phrases: [
      "not cooling",
      "blowing warm air",
      "ac won't turn on",
      "a/c won't turn on",
      "air conditioner won't start",
    ],
  },
  procedure: {
    id: "roof_ac_isolation",
    title: "Rooftop A/C: not cooling or not running",
    steps: [
      {
        id: "power",
        question: "Is 120 V reaching the A/C: shore power or generator on, and the A/C breaker in the panel ON?",
        howto:
          "Check the pedestal or generator, then the A/C breaker in the 120 V panel. With a meter, confirm 108–130 V AC at an outlet on the same circuit (or at the A/C's junction box with the ceiling assembly off).",
        locate:
          "The 120 V breakers are in the converter / distribution centre, usually under a bed, in a hallway cabinet or in a basement bay; the A/C breaker is labelled AC or AIR.",
        explain: "The compressor and fan run on 120 V; low voltage also damages compressors, so it comes first.",
        minutes: 5,
        answers: [
          {
            id: "ok",
            label: "120 V present, breaker on",
            patterns: [
              "yes",
              "power is on",
              "breaker is on",
              "120v",
              "120 v",
              "120 volts",
              "has power",
              "power is good",
              "power ok",
            ],
            finding: "ac_power=ok",
          },
          {
            id: "tripped",
            label: "A/C breaker tripped",
            patterns: [
              "tripped",
              "breaker tripped",
              "breaker is tripped",
              "breaker was tripped",
              "keeps tripping",
              "trips",
            ],
            finding: "ac_power=tripped",
            next: "report",
            cause: "The A/C breaker was tripped.",
            correction:
              "Reset the A/C breaker once. If it trips again, do not keep resetting it: check the supply and the compressor's current draw before returning the unit.",
          },
          {
            id: "none",
            label: "No or low 120 V",
            patterns: [
              "no",
              "no power",
              "no 120",
              "no 120v",
              "low voltage",
              "under 108",
              "generator off",
              "not plugged in",
            ],
            finding: "ac_power=none",
            next: "report",
            cause: "No (or low) 120 V supply at the A/C: pedestal, cord, transfer switch or generator.",
            correction:
              "Restore the 120 V supply (pedestal breaker, cord, transfer switch, generator). Below 108 V do not run the A/C: it can damage the compressor.",
          },
        ],
      },
      {
        id: "thermostat",
        question: "Set the thermostat to COOL, below room temperature. Does it call for cooling?",
        howto:
          "Set COOL with the setpoint at least 3 °F below room temperature. Most thermostats click and show a cooling icon; digital ones may show a delay timer first.",
        locate: "The thermostat is on the wall of the main living area, usually near the entry door or the hallway.",
        explain: "The A/C does nothing until the thermostat calls for cooling over its 12 V control wiring.",
        minutes: 5,
        answers: [
          {
            id: "calls",
            label: "Calls for cooling",
            patterns: ["yes", "calls for cool", "calls for cooling", "calling", "clicks", "shows cool", "snowflake"],
            finding: "thermostat_cool=calls",
          },
          {
            id: "no_call",
            label: "No call (blank or no click)",
            patterns: [
              "no",
              "doesn't call",
              "does not call",
              "blank",
              "display blank",
              "no display",
              "no click",
              "thermostat is dead",
            ],
            finding: "thermostat_cool=no_call",
            next: "report",
            cause:
              "The thermostat does not call for cooling (no 12 V at the thermostat, its fuse, or a failed thermostat).",
            correction: "Check the thermostat's 12 V fuse and wiring; reset or replace the thermostat.",
          },
        ],
      },
      {
        id: "fan",
        question: "Does the indoor blower fan run and move air at the ceiling vents?",
        howto: "Set the fan to HIGH and hold a hand or a tissue at a ceiling vent.",
        locate: "The blower is inside the roof unit, behind the ceiling assembly's vents.",
        explain: "Without airflow the coil freezes and the unit cannot cool, whatever the compressor does.",
        minutes: 5,
        constraints: ["shore_power_off"],
        answers: [
          {
            id: "runs",
            label: "Fan runs",
            patterns: ["yes", "fan runs", "fan is running", "blower runs", "air is moving", "air moving", "blowing"],
            finding: "ac_fan=runs",
          },
          {
            id: "no",
            label: "Fan does not run",
            patterns: ["no", "fan doesn't run", "fan does not run", "fan won't run", "no fan", "no air", "fan is dead"],
            finding: "ac_fan=no",
            next: "report",
            cause: "The blower fan motor does not run (motor, fan capacitor or control board).",
            correction:
              "With power off and the capacitor discharged, test the fan motor and its capacitor; replace the failed part.",
          },
        ],
      },
      {
        id: "compressor",
        question:
          "Wait 3 minutes (the compressor delay). Does the compressor start: a hum from the roof unit, the condenser fan turning, and colder air?",
        howto:
          "Stand outside or listen at a vent after the delay. The compressor is a low hum and the air turns cold within a minute; a click and hum that stops after a few seconds is a failed start.",
        locate: "The compressor is in the rear half of the roof unit, under the shroud, next to the condenser coil.",
        explain:
          "Fan without compressor means no cooling; a compressor that will not start is most often its start/run capacitor.",
        minutes: 10,
        constraints: ["roof_access"],
        answers: [
          {
            id: "runs",
            label: "Compressor starts",
            patterns: [
              "yes",
              "compressor runs",
              "compressor starts",
              "compressor is running",
              "kicks on",
              "air is cold",
              "cold air",
            ],
            finding: "compressor=runs",
            next: "airflow",
          },
          {
            id: "no_start",
            label: "Compressor does not start (or hums and stops)",
            patterns: [
              "no",
              "doesn't start",
              "does not start",
              "won't start",
              "compressor won't start",
              "hums",
              "humming",
              "clicks off",
              "only the fan",
              "just the fan",
            ],
            finding: "compressor=no_start",
            next: "capacitor",
          },
        ],
      },
      {
        id: "capacitor",
        question:
          "With power off and the capacitor discharged, test the compressor's start/run capacitor: is it within ±6% of its rated µF and not bulged or leaking?",
        howto:
          "Disconnect shore power and the generator, remove the shroud, discharge the capacitor across its terminals with an insulated resistor tool, label and remove the wires, and read it on the meter's capacitance range.",
        locate: "The capacitors are in the roof unit's electrical box under the shroud, beside the compressor.",
        explain: "A weak capacitor cannot start the compressor; it is a cheap part and the usual cause.",
        minutes: 20,
        constraints: ["shore_power_off", "capacitor_charge", "roof_access", "compressor_authorization"],
        requires: { finding: "compressor=no_start" },
        answers: [
          {
            id: "bad",
            label: "Out of spec, bulged or leaking",
            patterns: [
              "no",
              "bad",
              "bulged",
              "bulging",
              "leaking",
              "out of spec",
              "reads low",
              "weak",
              "failed",
              "bad capacitor",
            ],
            finding: "capacitor=bad",
            next: "report",
            cause: "Failed compressor start/run capacitor.",
            correction:
              "Replace the capacitor with the same µF and voltage rating (discharge first), then verify the compressor starts and draws normal current.",
          },
          {
            id: "good",
            label: "Within spec",
            patterns: ["yes", "good", "in spec", "within spec", "capacitor is good", "capacitor ok", "reads ok"],
            finding: "capacitor=good",
            next: "report",
            escalate: "warranty",
            cause: "The compressor does not start with 120 V present and a good capacitor: suspected compressor fault.",
            correction: "Do not open the sealed system: escalate to the dealer for a warranty A/C evaluation.",
          },
        ],
      },
      {
        id: "airflow",
        question:
          "Run it 15 minutes. Are the return filters clean, and is the supply air 15–20 °F colder than the return air?",
        howto:
          "Remove the return-air grille and inspect the filters. Measure the return air at the ceiling intake and the supply air at the nearest vent with a probe thermometer; a 15–20 °F drop is normal.",
        locate: "The return-air filters sit behind the ceiling assembly's centre grille.",
        explain:
          "Temperature drop is the best field test of a sealed system: a normal drop with clean filters means the A/C works; a low drop with clean filters points into the sealed system.",
        minutes: 20,
        answers: [
          {
            id: "good",
            label: "Filters clean, 15–20 °F drop",
            patterns: [
              "yes",
              "normal",
              "temp drop is good",
              "drop is good",
              "20 degrees",
              "18 degrees",
              "15 degrees",
              "cold",
            ],
            finding: "airflow=good",
            next: "report",
            cause: "No fault found: the A/C cools within specification (15–20 °F drop).",
            correction:
              "No repair needed; advise the customer on filter cleaning and heat load (sun, outside temperature, closed blinds).",
          },
          {
            id: "dirty_filter",
            label: "Filters dirty",
            patterns: [
              "dirty",
              "filters dirty",
              "filter is dirty",
              "filters are dirty",
              "dirty filter",
              "clogged filter",
            ],
            finding: "airflow=dirty_filter",
            next: "report",
            cause: "Restricted airflow from dirty return-air filters.",
            correction: "Clean or replace the filters and recheck the temperature drop.",
          },
          {
            id: "weak",
            label: "Clean filters but a small drop (or icing)",
            patterns: [
              "no",
              "weak",
              "warm",
              "not cold",
              "barely cold",
              "small drop",
              "10 degrees",
              "5 degrees",
              "icing",
              "frozen",
            ],
            finding: "airflow=weak",
            next: "report",
            escalate: "warranty",
            cause:
              "A low temperature drop with clean filters and a running compressor: suspected refrigerant or coil problem in the sealed system.",
            correction: "Do not open the sealed system under warranty: escalate to the dealer.",
          },
        ],
      },
    ],
  },
  constraints: {
    safety: [
      {
        id: "shore_power_off",
        text: "Disconnect shore power and turn off the generator and inverter before removing the A/C shroud or the ceiling assembly.",
      },
      {
        id: "capacitor_charge",
        text: "Capacitors hold a charge: discharge them with an insulated resistor tool before touching the terminals.",
      },
      {
        id: "roof_access",
        text: "Use a ladder rated for the height and stay off a wet roof; check that the roof is walkable before stepping on it.",
      },
    ],
    warranty: [
      {
        id: "sealed_system",
        text: "Do not open the sealed refrigerant circuit (no piercing valves, gauges or recharge) under warranty; escalate to the dealer.",
        always: true,
      },
      {
        id: "compressor_authorization",
        text: "Compressor or A/C unit replacement under warranty needs the manufacturer's authorization: escalate to the dealer first.",
      },
    ],
  },
};

// Original file: durak/v1/bot.proto

import type { Reason as _durak_v1_Reason, Reason__Output as _durak_v1_Reason__Output } from '../../durak/v1/Reason';
import type { Team as _durak_v1_Team, Team__Output as _durak_v1_Team__Output } from '../../durak/v1/Team';

export interface Outcome {
  'durak'?: (number);
  'draw'?: (boolean);
  'reason'?: (_durak_v1_Reason);
  'out_order'?: (number)[];
  'offender'?: (number);
  'detail'?: (string);
  'losers'?: (_durak_v1_Team | null);
  '_durak'?: "durak";
  '_offender'?: "offender";
}

export interface Outcome__Output {
  'durak'?: (number);
  'draw': (boolean);
  'reason': (_durak_v1_Reason__Output);
  'out_order': (number)[];
  'offender'?: (number);
  'detail': (string);
  'losers': (_durak_v1_Team__Output | null);
  '_durak'?: "durak";
  '_offender'?: "offender";
}

// C39: spun pitches, as a campaign sends one to many forms: six spintax templates written for this
// project (like the form corpus), and the seeded spinner that makes their copies. Read by the
// campaign tests and by `npm run bench:spam`'s campaign line.

// Six pitches as campaigns send them, most phrases spun, the link's path and the signature too
// (written for this project).
export const TEMPLATES: Record<string, string> = {
  seo: `{Hi|Hello|Hey|Good day}{ there| team|},
{I was|I've been|We were} {looking at|checking out|going through|browsing} your {website|site|web site} {and|and I} \
{noticed|saw|found|realised} that it {isn't ranking|doesn't rank|is not showing up} {on the first page|on page one|in \
the top results} of {Google|Google search|the search engines} for {several|many|a number of} {important|valuable|key} \
{keywords|search terms|phrases}.
{We are|We're|Our company is} {a|an experienced|a leading} {SEO agency|search engine optimisation company|digital \
marketing agency} {and we|that} {can|could} {help you|get you} {rank higher|reach the top|get more traffic} \
{within|in just|in under} {30|90|60} days{, guaranteed|, with a money back guarantee|}. {Our|The} {monthly|affordable|low \
cost} {packages|plans} {start at|begin from|are only} {$199|$149|$99} {per month|a month|monthly}.
{Would you like|Are you interested in|Can I send you} a {free|no obligation|complimentary} {audit|SEO report|website \
analysis}? {See|Check|View} {our results|our case studies|what we did for others} here: \
https://rank-{rocket|boost|pilot}.example/{free-audit|report|offer}?{id|ref}={1234|8812|5531}
{Best regards|Kind regards|Regards|Thanks},
{John|James|Mark|David|Ryan} {Smith|Miller|Wilson|Taylor}
{SEO Manager|Business Development|Digital Strategist}`,
  outsourcing: `{Hello|Hi|Dear Sir/Madam|Greetings},
{We are|We're} {a|an ISO certified|a fast growing} {web design and development|software development|website \
development} {company|agency|firm} {based in|located in|from} {India|Bangalore|New Delhi}. {We|Our team} \
{offer|provide|deliver} {high quality|professional|top notch} {website design|web development|WordPress, Shopify and \
custom development} {services|solutions} at {very|extremely|really} {affordable|competitive|low} {prices|rates|costs}\
{ compared to local agencies|, up to 60% less than local agencies|}.
{Our services include|We can help with|We specialise in}: {website redesign|new websites}, {e-commerce stores|online \
shops}, {mobile apps|iOS and Android apps}, {SEO|digital marketing} and {ongoing maintenance|website support}. {We \
have|With} {over|more than} {8|10|12} years of {experience|expertise} {and|and have} {completed|delivered} \
{500+|800+|1000+} {projects|websites} for {clients|customers} {worldwide|around the world|in the US, UK and Australia}.
{If you are interested|If interested|Should you be interested}, {please|kindly} {reply to this message|reply back|let \
me know} {and|so} {I can|I will|we can} {send you|share} {our portfolio|our work samples|a quote}. {Portfolio|Our \
work}: https://devworks-{india|global|pro}.example/{portfolio|work|samples}/{2024|web|all}
{Thanks and regards|Regards|Warm regards},
{Amit|Rahul|Priya|Neha|Vikram} {Sharma|Verma|Gupta}
{Business Development Manager|Sales Executive|Project Coordinator}`,
  video: `{Hi|Hey|Hello}{,|!| there,}
{I just|I} {visited|came across|found} your {website|site} and {wanted to|thought I'd} {reach out|get in touch|ask}: \
{have you ever thought about|have you considered|would you be interested in} {an explainer video|an animated explainer \
video|a short animated video} {for your business|to explain what you do|for your homepage}?
{Explainer videos|Animated videos|Short videos like these} {are proven to|can|typically} {increase conversions|boost \
sales|grow your leads} {by|by up to|by as much as} {20%|80%|144%} and {keep visitors|help people stay|make visitors \
stay} on your {site|page|website} {longer|for longer|twice as long}. {Our|My} {team|studio} {writes the script|handles \
the script}, {does the voiceover|records the voice-over} and {animates everything|does all the animation} {for a flat \
fee|for one price|at a fixed price} of {$497|$399|$597}{, with unlimited revisions|, including unlimited revisions|}.
{Watch|See|Check out} {a few examples|some samples|our demo reel} {here|below}: \
https://{vidpitch|explainly|animotion}.example/{demo|samples|reel}{-2|/v3|}
{If this sounds good|If you're interested|Interested}, {just reply|reply to this email|let me know} {and|and I'll} \
{I'll send|we will send} {a free script|a quick quote|more details}.
{Cheers|Thanks|Best},
{Emma|Sophie|Olivia|Chloe|Mia}
{Creative Director|Video Producer}`,
  loans: `{Hello|Hi|Dear business owner|Good morning},
{Does your business|Is your company|Are you} {need|in need of|looking for} {working capital|extra funding|a business \
loan|fast cash flow}? {We|Our lenders|Our network of lenders} {can|could} {approve|fund|provide} {up to|as much as} \
{$500,000|$250,000|$2 million} {in as little as|within|in under} {24 hours|48 hours|2 business days}{, even with bad \
credit|, bad credit OK|, no collateral needed|}.
{No|Zero} {upfront fees|application fees|hidden fees}, {a simple|an easy|a one page} {online application|application \
form} and {flexible|easy} {repayment|payback} {terms|options}. {Over|More than} {1,000|5,000|10,000} {small \
businesses|companies|business owners} {have|already} {trusted us|been funded|got funded} {this year|since 2015|so far}.
{Check|See|Find out} {how much you qualify for|your eligibility|your approval amount} {in 2 minutes|in under a \
minute|instantly}{ without affecting your credit score|, no credit check|}: \
https://{capital|fund|loan}{flow|ease|bridge}.example/{apply|qualify|start}?{src|utm_source}={cf|form|web}
{Regards|Best wishes|Sincerely},
{Michael|Robert|Chris|Daniel|Steven} {Brown|Johnson|Davis}
{Funding Specialist|Senior Loan Advisor|Account Executive}`,
  errors: `{Hi|Hello|Hey}{ there|},
{I was|I've been|While I was} {on|browsing|looking through} your {website|site|web page} {earlier|today|this morning} \
{and|when I} {noticed|found|spotted|came across} {a few|several|some} {errors|issues|problems|mistakes} {on it|on your \
pages|that need fixing}{, including|, like|:} {broken links|dead links|404 pages}, {slow loading|slow page speed|a slow \
loading time} {on mobile|on phones|} and {missing|no|incomplete} {meta descriptions|SEO tags|title tags}.
{These|Such|Problems like these} {issues|errors|problems} {can|could|will} {hurt|damage|lower} your {Google \
rankings|search rankings|position in Google} and {cost you|lose you|drive away} {customers|visitors|sales} {every \
day|daily|each month}. {I have|I've} {put together|prepared|recorded} a {short|quick|free} {report|video|screenshot \
list} {showing|that shows|explaining} {exactly|precisely} {what's wrong|what I found|the problems} and {how to fix \
it|how to fix them|the fixes}.
{Can I send it to you|Shall I send it over|Would you like me to send it}? {It's|It is} {completely|totally|100%} free\
{, no strings attached|, no obligation|}. {You can also|Or} {see it|view it|grab it} {here|directly}: \
https://{site|web}{fix|audit|check}-{pro|now|hub}.example/{report|r|audit}/{a7|b2|c9}
{Thanks|Cheers|Best},
{Alex|Sam|Jordan|Taylor|Chris} {Lee|Parker|Morgan}`,
  crypto: `{Hello|Hi|Dear friend|Greetings},
{Are you|Have you been} {tired of|fed up with|struggling with} {low returns|your savings doing nothing|losing money}? \
{Our|The} {AI trading bot|automated crypto trading platform|smart Bitcoin robot} {made|generated|returned} \
{270%|312%|480%} {profit|returns|gains} {last year|in the past 12 months|since January} {for our members|for its \
users|for our investors}{, fully automated|, with no experience needed|}.
{Start with|Begin with|Invest} {as little as|only|just} {$250|$100|$500} and {watch|see} your \
{balance|portfolio|money} {grow|double|multiply} {every week|daily|in weeks}. {Withdraw|Cash out|Take out} {your \
profits|your earnings|your money} {anytime|any time|whenever you want}{, no lock-in|, no questions asked|}. {Spots \
are|Places are|Membership is} {limited|almost full|closing soon} {this month|for this round|today}{!|!!|.}
{Join|Register|Sign up} {now|today|here} {and|to} {claim|get|receive} {your|a} {bonus|welcome bonus|free $100 \
credit}: https://{coin|crypto|bit}{vault|profit|wave}.example/{join|vip|start}/{ref1|r7|x3}
{Best regards|Regards|To your success},
{Oliver|Lucas|Henry|Ethan|Noah} {Clark|Walker|Hall}
{Senior Account Manager|Investment Advisor|Crypto Analyst}`,
};

/** A seeded generator (mulberry32): the same copies on every run. */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One copy of a spintax template: each {a|b|c}, nested or not, becomes one of its choices. */
export function spin(template: string, random: () => number): string {
  let i = 0;
  const parse = (inside: boolean): string[] => {
    const options = [''];
    while (i < template.length) {
      const ch = template[i++] ?? '';
      const last = options.length - 1;
      if (ch === '{') {
        const choices = parse(true);
        options[last] += choices[Math.floor(random() * choices.length)] ?? '';
      } else if (inside && ch === '}') return options;
      else if (inside && ch === '|') options.push('');
      else options[last] += ch;
    }
    return options;
  };
  return parse(false)[0] ?? '';
}
